// The trigger buffer's segments as the journal keeps them for the session's next page
// (sdk/control/trigger_buffer.ts `keep()`, `carry()`): runs of one page's sequence, read back each once and
// only in this shape. Loaded with the journal (sdk/lazy/journal.ts), not in the SDK's entry.
import { type EncodedEvent, follows, utf8Length } from "@/sdk/send/encoded_event.ts";
import type { HeldSegment, PageStart } from "@/sdk/control/trigger_buffer.ts";

/** A segment as the journal keeps it for the session's next page (sdk/journal/journal.ts). */
export interface KeptSegment {
  start: number;
  page: PageStart;
  /** Its events in runs of one page's sequence: that page's id, the first's number, their JSON. */
  runs: { pageId: string; seq: number; events: string[] }[];
}

/** A held segment (its events numbered) as the journal keeps it. */
export function keptOf({ start, page, events }: HeldSegment): KeptSegment {
  return { start, page, runs: runsOf(events) };
}

/**
 * The well-formed kept segments, oldest first, each once (a page back from the back/forward cache
 * keeps again what the next page kept already: the longer copy stays), as held segments again.
 */
export function carried(kept: KeptSegment[]): HeldSegment[] {
  return distinct(kept).map((s) => ({
    start: s.start,
    page: s.page,
    events: s.runs.flatMap((r) => r.events.map((json, i) => numbered(json, r.pageId, r.seq + i))),
  }));
}

/** A kept segment's JSON characters (the journal's measure). */
export function keptSize(s: KeptSegment): number {
  return s.runs.reduce((n, r) => n + r.events.reduce((m, json) => m + json.length, 0), 0);
}

function numbered(json: string, page: string, seq: number): EncodedEvent {
  return { json, bytes: utf8Length(json), page, seq };
}

/** Numbered events as runs of one page's sequence. */
function runsOf(events: EncodedEvent[]): KeptSegment["runs"] {
  const runs: KeptSegment["runs"] = [];
  events.forEach((e, i) => {
    if (i > 0 && follows(events[i - 1], e)) runs.at(-1)!.events.push(e.json);
    else runs.push({ pageId: e.page!, seq: e.seq!, events: [e.json] });
  });
  return runs;
}

/** Well-formed kept segments by start, each once (the longer copy stays). */
function distinct(kept: KeptSegment[]): KeptSegment[] {
  const byKey = new Map<string, KeptSegment>();
  for (const s of kept.filter(wellFormed)) {
    const key = `${s.start} ${s.runs[0].pageId} ${s.runs[0].seq}`;
    const had = byKey.get(key);
    if (!had || keptSize(had) < keptSize(s)) byKey.set(key, s);
  }
  return [...byKey.values()].sort((a, b) => a.start - b.start);
}

/** What another version of the SDK kept may differ: only this shape is carried. */
function wellFormed(s: KeptSegment): boolean {
  const run = (r: KeptSegment["runs"][number]) =>
    typeof r?.pageId === "string" && Number.isSafeInteger(r.seq) && Array.isArray(r.events) &&
    r.events.every((json) => typeof json === "string");
  return Number.isFinite(s?.start) && typeof s.page?.url === "string" &&
    typeof s.page.referrer === "string" && Array.isArray(s.runs) && s.runs.length > 0 &&
    s.runs.every(run);
}
