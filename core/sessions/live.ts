// When a session can still grow: the one window behind the replay page's Live badge and its
// following of new batches, and a tracked user's "online" status and heartbeat. A page that says
// it closed (the SDK's end marker at `pagehide`) grows no more until another page of its session
// sends.
import { EventType } from "@rrweb/types";
import { PAGE_CLOSED_TAG } from "@/recording/events.ts";

/**
 * A session may still get events while its latest one is at most this old: the SDK uploads at
 * least every minute while its page is open. Its tracked user counts as online for as long.
 */
export const LIVE_WITHIN_MS = 120_000;

/** The marker ingest makes of it. */
export const PAGE_CLOSED_KIND = "page_closed";

/**
 * How much longer (ms, 0 when no more) a session whose latest event is at `endedAt` can grow; 0
 * too when that latest event is its page's end marker (`closedAt`, epoch ms, at or after it).
 */
export function liveForMs(endedAt: Date | null, now: Date, closedAt: number | null = null): number {
  if (!endedAt) return LIVE_WITHIN_MS;
  if (closedAt !== null && closedAt >= endedAt.getTime()) return 0;
  return Math.max(LIVE_WITHIN_MS - (now.getTime() - endedAt.getTime()), 0);
}

/** The latest end marker among a session's markers (epoch ms), or null. */
export function lastClosedAt(markers: readonly { timestamp: number; kind: string }[]) {
  let closed: number | null = null;
  for (const m of markers) {
    if (m.kind === PAGE_CLOSED_KIND && (closed === null || m.timestamp > closed)) {
      closed = m.timestamp;
    }
  }
  return closed;
}

/** Whether a recorded event is a page's end marker. */
export function closesPage(event: { type: number; data?: unknown }): boolean {
  return event.type === EventType.Custom &&
    (event.data as { tag?: unknown } | null)?.tag === PAGE_CLOSED_TAG;
}
