// The times a batch may carry (docs/decisions.md "Ingest"): an event's timestamp, a trigger's
// `triggeredAt`, a page's `startedAt`. A time becomes a session's start and end, its place in the
// list and a Date on every page that shows it: one past JavaScript's Date range broke every view
// of the organization, and one far ahead pinned its session to the top of the list.

const DAY_MS = 86_400_000;

/** The largest time a JavaScript Date holds (ECMA-262 §21.4.1.1). */
export const MAX_DATE_MS = 8.64e15;
/** How old a time may be: the SDK's journal re-sends pages up to 7 days old (sdk/journal/recovery.ts). */
export const RECORDED_PAST_MS = 30 * DAY_MS;
/** How far ahead of the server's clock a visitor's clock may run. */
export const RECORDED_FUTURE_MS = DAY_MS;

/** Why `ms` cannot be a recorded time when the server's clock reads `now`, or null when it can. */
export function recordedTimeIssue(ms: number, now: number): string | null {
  if (!Number.isSafeInteger(ms)) return "must be a whole number of milliseconds";
  const from = Math.max(0, now - RECORDED_PAST_MS);
  const to = Math.min(MAX_DATE_MS, now + RECORDED_FUTURE_MS);
  if (ms < from || ms > to) {
    return `must be within 30 days before and 1 day after the server's clock ` +
      `(${new Date(from).toISOString()} to ${new Date(to).toISOString()})`;
  }
  return null;
}
