// Hands a large frame to the pages that carry it one page per turn of the event loop: views of
// the same frame (a drawing they shared, or the cache) would otherwise all resume at once and
// write their pages (~30 ms of string work each for 6 MiB of HTML) back to back, holding every
// other request meanwhile.
import type { ServedFrame } from "@/player/server_frame/frame_job.ts";

/** Below this a page's writing is short enough to go at once. */
export const LARGE_FRAME_CHARS = 256 * 1024;

let last: Promise<void> = Promise.resolve();

/** `frame`, once the large frames handed out before it have each had their turn. */
export function inTurn(frame: ServedFrame | null): Promise<ServedFrame | null> {
  if (!frame || frame.srcdoc.length < LARGE_FRAME_CHARS) return Promise.resolve(frame);
  const turn = last.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  last = turn;
  return turn.then(() => frame);
}
