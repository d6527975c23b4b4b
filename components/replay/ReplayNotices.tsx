// What the player could not show, said plainly: undecodable batches, events of an unknown format,
// a recording without a page snapshot, or events that failed to load.
import { clock } from "@/player/ui/format.ts";
import type { BatchSpan } from "@/player/decode/decode_worker.ts";

export interface NoticesProps {
  sessionStart: number;
  corrupt: BatchSpan[];
  skipped: number;
  noSnapshot: boolean;
  failure: string | null;
}

export function ReplayNotices(p: NoticesProps) {
  const span = (b: BatchSpan) =>
    `${clock(b.firstTimestamp - p.sessionStart)}–${clock(b.lastTimestamp - p.sessionStart)}`;
  const notices: string[] = [];
  if (p.failure) notices.push(`The recording could not be loaded: ${p.failure}`);
  if (p.noSnapshot) {
    notices.push(
      "This recording has no full page snapshot, so the page itself cannot be drawn. " +
        "Its timeline, history and console still play.",
    );
  }
  if (p.corrupt.length > 0) {
    notices.push(
      `${p.corrupt.length} part${p.corrupt.length > 1 ? "s" : ""} of the recording ` +
        `(${p.corrupt.map(span).join(", ")}) could not be decoded and ` +
        `${p.corrupt.length > 1 ? "are" : "is"} skipped; the page may look incomplete there.`,
    );
  }
  if (p.skipped > 0) {
    notices.push(
      `${p.skipped} event${p.skipped > 1 ? "s" : ""} of a kind this player does not know ` +
        "(recorded by another rrweb version?) left out; the rest plays.",
    );
  }
  if (notices.length === 0) return null;
  return (
    <ul class="replay-notices" role="alert">
      {notices.map((text) => <li key={text}>{text}</li>)}
    </ul>
  );
}
