// `deno run -A bench/replay/snapshot_interval.ts`: what the SDK's full-snapshot interval
// (`checkoutEveryNms`) costs and buys, computed from the corpus. Each recording is looped
// into 20 minutes the way the synthetic hour is made (an hour of editormd does not fit in one
// string), then cut with rrweb's checkout rule (a new full
// snapshot, of the size of the page's last real one, before the first incremental event at least
// the interval after the last snapshot). Cost: bytes stored per hour (gzip
// per request of 500 events, as the SDK ships them, scaled to an hour). Gain: what opening at a moment must decode and replay: the events from the last full snapshot at
// or before it up to it (`?from=`), worst case and mean over 400 evenly spaced moments.
import { gzipSync } from "node:zlib";
import { listRecordings, loadRecording, type RrwebEvent } from "@/bench/corpus_batches.ts";
import { hourLongSession } from "./synthetic.ts";

/** When to take a new full snapshot: at an interval, or (`weight`) once the events since the last
 * one outweigh it that many times, at least `minMs` after it (and every 5 minutes regardless). */
type Rule = { intervalMs: number } | { weight: number; minMs: number };
const RULES: Rule[] = [
  { intervalMs: 300_000 },
  { intervalMs: 120_000 },
  { intervalMs: 60_000 },
  { intervalMs: 30_000 },
  { weight: 2, minMs: 30_000 },
  { weight: 4, minMs: 30_000 },
];
const EVERY_MS = 300_000;

const label = (rule: Rule) =>
  "intervalMs" in rule
    ? `every ${rule.intervalMs / 1_000} s`
    : `events since > ${rule.weight}× snapshot, ≥ ${rule.minMs / 1_000} s apart`;
const MOMENTS = 400;
const SESSION_MS = 20 * 60_000;
const REQUEST_EVENTS = 500;
const FULL_SNAPSHOT = 2;
const INCREMENTAL = 3;

const gzipBytes = (value: unknown) => gzipSync(JSON.stringify(value)).length;
const rawBytes = (value: unknown) => JSON.stringify(value).length;

/** Gzipped bytes of the events cut into requests of REQUEST_EVENTS. */
function shippedBytes(events: RrwebEvent[]): number {
  let total = 0;
  for (let i = 0; i < events.length; i += REQUEST_EVENTS) {
    total += gzipBytes(events.slice(i, i + REQUEST_EVENTS));
  }
  return total;
}

interface Figures {
  storedMbPerHour: number;
  snapshots: number;
  worstMb: number;
  meanMb: number;
  worstEvents: number;
}

function study(events: RrwebEvent[], rule: Rule, snapshotGz: number, snapshotRaw: number) {
  // Cumulative raw bytes and event counts, and where a (real or added) snapshot starts.
  const starts: { at: number; index: number }[] = [];
  const cumulative: number[] = [0];
  let added = 0;
  let last = -Infinity;
  let since = 0; // raw bytes since the last snapshot
  const due = (elapsed: number) =>
    "intervalMs" in rule
      ? elapsed >= rule.intervalMs
      : elapsed >= EVERY_MS || (elapsed >= rule.minMs && since >= rule.weight * snapshotRaw);
  for (const [i, event] of events.entries()) {
    if (event.type === FULL_SNAPSHOT) {
      last = event.timestamp;
      since = 0;
      starts.push({ at: event.timestamp, index: i });
    } else if (event.type === INCREMENTAL && due(event.timestamp - last)) {
      last = event.timestamp;
      since = 0;
      added++;
      starts.push({ at: event.timestamp, index: i });
    }
    const bytes = rawBytes(event);
    since += bytes;
    cumulative.push(cumulative[i] + bytes);
  }
  const first = events[0].timestamp;
  const span = events.at(-1)!.timestamp - first;
  let worst = 0, worstEvents = 0, sum = 0;
  let s = 0, e = 0;
  for (let k = 0; k < MOMENTS; k++) {
    const moment = first + (span * (k + 0.5)) / MOMENTS;
    while (s + 1 < starts.length && starts[s + 1].at <= moment) s++;
    while (e < events.length && events[e].timestamp <= moment) e++;
    const from = starts[s].index;
    // An added snapshot is not in `events`: its size is the page's last real one.
    const real = events[from].type === FULL_SNAPSHOT;
    const bytes = cumulative[e] - cumulative[from] + (real ? 0 : snapshotRaw);
    worst = Math.max(worst, bytes);
    worstEvents = Math.max(worstEvents, e - from);
    sum += bytes;
  }
  const hours = span / 3_600_000;
  return {
    storedMbPerHour: (shippedBytes(events) + added * snapshotGz) / 1e6 / hours,
    snapshots: starts.length,
    worstMb: worst / 1e6,
    meanMb: sum / MOMENTS / 1e6,
    worstEvents,
  } satisfies Figures;
}

const rows: string[] = [];
for (const name of await listRecordings()) {
  const source = await loadRecording(name);
  const events = hourLongSession(source, SESSION_MS);
  const snapshot = source.findLast((e) => e.type === FULL_SNAPSHOT)!;
  const [gz, raw] = [gzipBytes(snapshot), rawBytes(snapshot)];
  for (const rule of RULES) {
    const f = study(events, rule, gz, raw);
    rows.push(
      `| ${name} | ${(gz / 1e3).toFixed(0)} KB (${(raw / 1e6).toFixed(2)} MB) | ` +
        `${label(rule)} | ${f.snapshots} | ${f.storedMbPerHour.toFixed(1)} | ` +
        `${f.worstMb.toFixed(2)} (${f.worstEvents.toLocaleString("en")} events) | ` +
        `${f.meanMb.toFixed(2)} |`,
    );
    console.log(rows.at(-1));
  }
}
