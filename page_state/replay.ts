// The replay page's URL (/replays/:sessionId): the moment to open at, `?t=` in ms from the
// session's start on its real (not idle-compressed) timeline, and the comment opened at
// (`?comment=`, a comment's link: its moment and its id).
const MOMENT = "t";
const COMMENT = "comment";

/** A comment id as the app makes them (core/ids.ts and cuid2: lowercase letters and digits). */
const COMMENT_ID = /^[a-z0-9]{1,64}$/;

/** The moment to open at: 0 when absent or not a whole number of ms (never a 400: a shared link). */
export function readReplayMoment(url: URL): number {
  const value = url.searchParams.get(MOMENT);
  return value && /^\d{1,12}$/.test(value) ? Number(value) : 0;
}

/** The comment the page was opened at: null when absent or not a comment id (never a 400). */
export function readReplayComment(url: URL): string | null {
  const value = url.searchParams.get(COMMENT);
  return value !== null && COMMENT_ID.test(value) ? value : null;
}

/** A link to a comment: its session's replay at its moment, the comment named. */
export function commentHref(sessionId: string, comment: { id: string; offsetMs: number }): string {
  const query = new URLSearchParams({ [COMMENT]: comment.id });
  return `${replayHref(sessionId, comment.offsetMs)}&${query}`;
}

/** A link to a session's replay, opened at `moment` ms when given. */
export function replayHref(sessionId: string, moment?: number): string {
  return withMoment(`/replays/${encodeURIComponent(sessionId)}`, moment);
}

/** Where a replay page's frame loads the server's frame served as its own document (0: the first). */
export function replayFrameHref(sessionId: string, moment: number): string {
  return withMoment(`/replays/frame/${encodeURIComponent(sessionId)}`, moment || undefined);
}

function withMoment(path: string, moment?: number): string {
  return moment === undefined ? path : `${path}?${MOMENT}=${Math.max(0, Math.round(moment))}`;
}
