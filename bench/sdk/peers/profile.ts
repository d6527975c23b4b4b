// Where Playhead's bytes go: its ingest bodies decoded and their events grouped (full snapshots,
// mutations, mouse and scroll, input, the rest), each group's JSON size and its size gzipped alone.
import { gzipSync } from "node:zlib";
import { playheadEvents } from "./playhead.ts";
import type { SinkRequest } from "./recorder.ts";

export interface ByteGroup {
  name: string;
  events: number;
  jsonBytes: number;
  /** The group's events alone, as one JSON array gzipped (level 6, as CompressionStream). */
  gzipBytes: number;
}

// rrweb's event types and incremental sources (@rrweb/types EventType, IncrementalSource).
const FULL = 2, INCREMENTAL = 3, META = 4;
const SOURCE_GROUPS: Record<number, string> = {
  0: "mutations",
  1: "mouse and touch moves",
  6: "mouse and touch moves",
  2: "clicks and focus (mouse interaction)",
  3: "scroll",
  5: "input",
  4: "viewport resize",
};

function group(event: { type: number; data?: { source?: number } }): string {
  if (event.type === FULL) return "full snapshots";
  if (event.type === META) return "meta (url, viewport)";
  if (event.type === INCREMENTAL) {
    return SOURCE_GROUPS[event.data?.source ?? -1] ?? "other incremental";
  }
  return "custom and plugin (service tags, console)";
}

export interface PlayheadProfile {
  groups: ByteGroup[];
  fullSnapshots: number;
  /**
   * The same events cut as plain rrweb's run cuts them (the first batch at 5 s, then every 60 s),
   * each batch gzipped: with every event, and without the full snapshots after the first.
   */
  rebatched: { all: number; firstSnapshotOnly: number };
  /** JSON bytes of the mutations' parts: nodes added, removed, attributes and texts set. */
  mutationParts: Record<"adds" | "removes" | "attributes" | "texts", number>;
}

/** The byte groups of Playhead's ingest requests, largest first; also the full snapshot count. */
export async function profilePlayhead(requests: SinkRequest[]): Promise<PlayheadProfile> {
  const byGroup = new Map<string, unknown[]>();
  const all: { type: number; timestamp: number }[] = [];
  const mutationParts = { adds: 0, removes: 0, attributes: 0, texts: 0 };
  for (const req of requests.filter((r) => r.path.startsWith("/api/ingest"))) {
    for (const event of await playheadEvents(req)) {
      all.push(event);
      const name = group(event);
      byGroup.set(name, [...(byGroup.get(name) ?? []), event]);
      if (name === "mutations") {
        const data = event.data as unknown as Record<keyof typeof mutationParts, unknown[]>;
        for (const part of Object.keys(mutationParts) as (keyof typeof mutationParts)[]) {
          mutationParts[part] += JSON.stringify(data[part] ?? []).length;
        }
      }
    }
  }
  const groups = [...byGroup].map(([name, events]) => {
    const json = JSON.stringify(events);
    return {
      name,
      events: events.length,
      jsonBytes: new TextEncoder().encode(json).length,
      gzipBytes: gzipSync(json, { level: 6 }).length,
    };
  }).sort((a, b) => b.gzipBytes - a.gzipBytes);
  const firstFull = all.find((e) => e.type === FULL);
  return {
    groups,
    fullSnapshots: byGroup.get("full snapshots")?.length ?? 0,
    mutationParts,
    rebatched: {
      all: gzippedBatches(all),
      firstSnapshotOnly: gzippedBatches(all.filter((e) => e.type !== FULL || e === firstFull)),
    },
  };
}

/** Bytes of `events` cut into a batch at 5 s, then one per 60 s, each gzipped (level 6). */
function gzippedBatches(events: { timestamp: number }[]): number {
  if (!events.length) return 0;
  const start = Math.min(...events.map((e) => e.timestamp));
  const batchOf = (
    t: number,
  ) => (t - start < 5_000 ? 0 : 1 + Math.floor((t - start - 5_000) / 60_000));
  const batches = new Map<number, unknown[]>();
  for (const e of events) {
    const n = batchOf(e.timestamp);
    batches.set(n, [...(batches.get(n) ?? []), e]);
  }
  return [...batches.values()].reduce(
    (sum, batch) => sum + gzipSync(JSON.stringify({ events: batch }), { level: 6 }).length,
    0,
  );
}
