// The replay page's frame at a moment (`?t=`), drawn by the server (player/server_frame/): read from
// the stored batches from the one holding the last full snapshot at or before it, bounded per
// request, and kept per session, stored event count and moment in a bounded cache. Past a bound the
// page opens without it and the player draws the moment, as before; that is logged.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { FirstFrame } from "@/player/server_frame/first_frame.ts";
import { frameAt, type StoredBatch } from "@/player/server_frame/frame_at.ts";
import { log } from "@/log.ts";
import { sessionOf, storedBatches } from "./detail.ts";
import { FrameCache } from "./frame_cache.ts";

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store">>;

/** 256 frames of up to 64 MiB of HTML in all (a page's frame is 5 KB–1 MB). */
const cache = new FrameCache<FirstFrame>(256, 64 * 1024 * 1024);

/** What the benchmark reports: views, cache hits and the server time of the frames drawn. */
export const momentFrameStats = { views: 0, hits: 0, drawnMs: 0, drawn: 0 };

/** The frame at real offset `offset` (ms from the session start), or null (not found throws). */
export async function momentFrame(
  deps: Deps,
  viewer: Viewer,
  id: string,
  offset: number,
): Promise<FirstFrame | null> {
  const session = await sessionOf(deps, viewer, id);
  momentFrameStats.views++;
  // A batch that arrives later (an open session) may hold events before the moment.
  const key = `${session.id}:${session.event_count}:${offset}`;
  const cached = cache.get(key);
  if (cached) {
    momentFrameStats.hits++;
    return cached;
  }
  const started = performance.now();
  const target = session.started_at.getTime() + offset;
  const stored = await storedBatches(deps, session, { from: offset });
  const { frame, failure, events } = await frameAt(gzipBatches(stored), target);
  const ms = Math.round(performance.now() - started);
  if (!frame) {
    log.info("replay:frame:fallback", { sessionId: session.id, offset, failure, events, ms });
    return null;
  }
  momentFrameStats.drawn++;
  momentFrameStats.drawnMs += ms;
  log.debug("replay:frame:drawn", { sessionId: session.id, offset, events, ms });
  cache.set(key, frame);
  return frame;
}

async function* gzipBatches(
  stored: AsyncIterable<{
    meta: { first_ts: number; last_ts: number };
    bytes: Uint8Array | null;
  }>,
): AsyncGenerator<StoredBatch> {
  for await (const { meta, bytes } of stored) {
    // A missing object: the frame would lack its events (the player reports the batch).
    if (!bytes) throw new Error("a stored batch is missing");
    yield { firstTimestamp: meta.first_ts, lastTimestamp: meta.last_ts, bytes: [bytes] };
  }
}
