// When a session can still grow: the one window behind the replay page's Live badge and its
// following of new batches, and a tracked user's "online" status and heartbeat.

/**
 * A session may still get events while its latest one is at most this old: the SDK uploads at
 * least every minute while its page is open. Its tracked user counts as online for as long.
 */
export const LIVE_WITHIN_MS = 120_000;

/** How much longer (ms, 0 when no more) a session whose latest event is at `endedAt` can grow. */
export function liveForMs(endedAt: Date | null, now: Date): number {
  if (!endedAt) return LIVE_WITHIN_MS;
  return Math.max(LIVE_WITHIN_MS - (now.getTime() - endedAt.getTime()), 0);
}
