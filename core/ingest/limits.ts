// How long the text of a marker may be, for the service and the SDK alike. Markers are rows with
// indexes and rollup keys beside them (a B-tree row holds at most ~2.7 KB): the SDK cuts what it
// sends, and ingest cuts whatever arrives, with a mark, so that no field can fail its batch.

/** Any string in a marker's payload or in traits (a name, a custom event's field). */
export const MARKER_TEXT_CHARS = 1024;
/** Traits one identify may carry; those past it (in the order sent) are not kept. */
export const MAX_TRAITS = 100;
/** A marker payload's JSON after the cuts; past it the payload keeps only `{ truncated: true }`. */
export const MARKER_DATA_CHARS = 8192;
/** A url marker's url. */
export const URL_CHARS = 2048;
/** A page's pathname: a rollup key (insights' pages) and what the `visited` filter matches. */
export const PATHNAME_CHARS = 512;
/** A signal's element selector: the rollup key of rage and dead clicks. */
export const SELECTOR_CHARS = 256;
/** A failing request's endpoint (method and folded path): what the insights group by. */
export const ENDPOINT_CHARS = 200;
/** An error's message: the rollup key of errors. */
export const ERROR_MESSAGE_CHARS = 200;
/** What ends a cut text. */
export const CUT_MARK = "…";

/**
 * `text` if it has at most `max` UTF-16 units, else its start and the cut mark in `max` units,
 * never splitting a surrogate pair.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - CUT_MARK.length;
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return text.slice(0, end) + CUT_MARK;
}
