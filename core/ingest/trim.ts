// A numbered batch less the events of its page already stored: another copy of some of them
// arrived first, cut differently (a keepalive body at unload, the page's journal re-sent by the
// next page, a retry), so only the rest is stored, counted and marked (docs/decisions.md "Ingest").
import { gunzipSync } from "node:zlib";
import { isNetworkEvent, type NetworkRequest } from "@/recording/network.ts";
import { prepareBatch, type PreparedBatch } from "./prepare.ts";
import type { IngestBody } from "./schema.ts";
import { holds, numbers, type SeqRanges, subtract } from "./seq_ranges.ts";

/** `batch` without the events whose numbers are in `stored`; null when nothing is left. */
export function trimBatch(batch: PreparedBatch, stored: SeqRanges): PreparedBatch | null {
  const range = batch.range;
  if (!range) return batch;
  const claim = subtract(range.claim, stored);
  const kept = subtract(range.stored, stored);
  if (kept.length === 0) return null; // what is left, if anything, are events bounding left out
  const events = JSON.parse(new TextDecoder().decode(gunzipSync(batch.data)));
  const seqs = [...numbers(range.stored)];
  const rest: IngestBody["events"] = events.filter((_: unknown, i: number) => holds(kept, seqs[i]));
  const sliceMarkers = batch.sliceMarkersJson ? JSON.parse(batch.sliceMarkersJson) : undefined;
  return prepareBatch(rest, requestsOf(rest), sliceMarkers, {
    pageId: range.pageId,
    claim,
    stored: kept,
  });
}

/** The requests of bounded network events, as bounding returned them. */
function requestsOf(events: IngestBody["events"]): NetworkRequest[] {
  return events.filter(isNetworkEvent).flatMap((e) =>
    (e.data as { payload: { requests: NetworkRequest[] } }).payload.requests
  );
}
