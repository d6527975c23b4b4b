// The events endpoint as the replay asks it. The page's first request is written in two places that
// must agree to the byte: the server-rendered page preloads it (`<link rel="preload">`) and the
// player fetches it, which the browser then answers from that preload.

/** `/api/sessions/<id>/events`, or from the last full snapshot at or before `startAt` when > 0. */
export function firstEventsPath(sessionId: string, startAt: number): string {
  const path = `/api/sessions/${encodeURIComponent(sessionId)}/events`;
  return startAt > 0 ? `${path}?from=${startAt}` : path;
}
