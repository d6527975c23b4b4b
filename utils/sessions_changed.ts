// The window event one island sends when it deleted sessions, so another on the page (the KPI
// cards) reads its numbers again: islands hydrate separately and share no state.
export const SESSIONS_CHANGED = "playhead:sessions-changed";

export function announceSessionsChanged(): void {
  dispatchEvent(new Event(SESSIONS_CHANGED));
}
