// The replay page's URL (/replays/:sessionId): the moment to open at, `?t=` in ms from the
// session's start on its real (not idle-compressed) timeline.
const MOMENT = "t";

/** The moment to open at: 0 when absent or not a whole number of ms (never a 400: a shared link). */
export function readReplayMoment(url: URL): number {
  const value = url.searchParams.get(MOMENT);
  return value && /^\d{1,12}$/.test(value) ? Number(value) : 0;
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
