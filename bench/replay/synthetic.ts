// A synthetic 1-hour session for the seek benchmark: todomvc-react's recording (from its first
// full snapshot on) played back to back until an hour is filled, keeping only the first cycle's
// full snapshot and Meta, so a seek near the end has an hour of events behind it.
import { EventType } from "@rrweb/types";
import type { RrwebEvent } from "@/bench/corpus_batches.ts";

export function hourLongSession(source: RrwebEvent[], hourMs = 3_600_000): RrwebEvent[] {
  const first = source.findIndex((e) => e.type === EventType.FullSnapshot);
  const head = source.slice(0, first + 1);
  const loop = source.slice(first + 1).filter((e) =>
    e.type !== EventType.FullSnapshot && e.type !== EventType.Meta
  );
  const start = source[0].timestamp;
  const cycle = source.at(-1)!.timestamp - start + 1_000;
  const events = [...head];
  for (let shift = 0; shift + cycle <= hourMs; shift += cycle) {
    for (const event of loop) events.push({ ...event, timestamp: event.timestamp + shift });
  }
  return events;
}
