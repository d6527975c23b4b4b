// A public link opened (docs/decisions.md "Shares"): the token checked by its hash, the session
// found, and only what the shared page shows: the window, the player's timeline and the markers of
// pages and frustration signals in it (errors only with the console). No tracked user, no project
// or organization name, no other session. Every way a link cannot open is the same null (a 404).
import type { AppDeps } from "@/core/deps.ts";
import { findSession, sessionMarkers, type SessionRow } from "@/db/queries/sessions/detail.ts";
import { countView, openShare, type OpenShareRow } from "@/db/queries/shares/shares.ts";
import { storedBatches } from "@/core/sessions/detail.ts";
import type { EventBatchOut, MarkerOut } from "@/core/sessions/schema.ts";
import { guessThrottleOf } from "./guess_throttle.ts";
import { hashShareToken, TOKEN_PATTERN } from "./token.ts";
import type { EventWindow } from "./window_events.ts";

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store">>;

export interface OpenedShare {
  share: OpenShareRow;
  session: SessionRow;
  window: EventWindow;
}

/** An address past its budget of unknown tokens: it may look again in this many seconds. */
export interface Throttled {
  retryAfter: number;
}

/**
 * The link and its session, or null (unknown, revoked, expired, links turned off, session gone,
 * not shaped like a token). An address past its unknown-token budget is throttled before any
 * lookup; an unknown token of a token's shape counts, anything else is no guess.
 */
export async function openSharedSession(
  deps: Deps,
  token: string,
  address: string,
  now = new Date(),
): Promise<OpenedShare | Throttled | null> {
  // Not a token's shape: no guess (a recorded page's relative address resolves under /s/).
  if (!TOKEN_PATTERN.test(token)) return null;
  const throttle = guessThrottleOf(deps);
  const retryAfter = throttle.retryAfter(address);
  if (retryAfter > 0) return { retryAfter };
  const share = await openShare(deps.db.kysely, await hashShareToken(token), now);
  const session = share &&
    await findSession(deps.db.kysely, share.organization_id, share.session_id);
  if (!share || !session) {
    throttle.miss(address);
    return null;
  }
  const startedAt = session.started_at.getTime();
  const start = startedAt + (share.start_ms ?? 0);
  const end = share.end_ms === null ? Infinity : startedAt + share.end_ms;
  return { share, session, window: { start, end, showConsole: share.show_console } };
}

/** What the shared page's player is told: its timeline starts at the window's start. */
export interface SharedReplay {
  /** Epoch ms of the window's start (the player's time 0). */
  startedAt: number;
  duration: number;
  /** The window in ms from the session's first event, for the page's caption. */
  fromMs: number;
  toMs: number;
  markers: MarkerOut[];
  showConsole: boolean;
}

const SHOWN_KINDS = new Set(["url", "recording_paused", "rage_click", "dead_click"]);

/**
 * A marker's fields the page needs: a page's path, a blocked one's too (not its query, which may
 * name the visitor), a click's selector and count (not the element's text), an error's message.
 */
function shownData(kind: string, data: unknown): Record<string, unknown> {
  const d = (data ?? {}) as Record<string, unknown>;
  const pick = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, d[k] ?? null]));
  if (kind === "url" || kind === "recording_paused") return pick("pathname");
  if (kind === "error") return pick("message");
  return pick("selector", "clicks");
}

/** The page's data, and one more view counted. */
export async function sharedReplay(
  deps: Deps,
  { share, session, window }: OpenedShare,
  now = new Date(),
): Promise<SharedReplay> {
  const sessionStart = session.started_at.getTime();
  const sessionEnd = sessionStart + session.duration;
  const end = Math.max(Math.min(window.end, sessionEnd), window.start);
  const rows = await sessionMarkers(deps.db.kysely, session.id, null);
  const markers = rows
    .filter((m) => SHOWN_KINDS.has(m.kind) || (window.showConsole && m.kind === "error"))
    .filter((m) => m.ts >= window.start && m.ts <= end)
    .map((m): MarkerOut => ({ timestamp: m.ts, kind: m.kind, data: shownData(m.kind, m.data) }));
  await countView(deps.db.kysely, share.id, now);
  return {
    startedAt: window.start,
    duration: end - window.start,
    fromMs: window.start - sessionStart,
    toMs: end - sessionStart,
    markers,
    showConsole: window.showConsole,
  };
}

/**
 * The link's events: the page at its start, then its window's, their page addresses cut and their
 * relative addresses dropped. Read from the batch holding the last full snapshot at or before it,
 * cut in the cut worker once per link, window and stored event count (link_cuts.ts).
 */
export function sharedEvents(
  deps: Deps & Pick<AppDeps, "linkCuts">,
  { share, session, window }: OpenedShare,
): Promise<AsyncIterable<EventBatchOut>> {
  const from = window.start - session.started_at.getTime();
  // From the recording's start: nothing before it, so nothing to synthesize.
  const cut = from > 0 ? window : { ...window, start: -Infinity };
  return deps.linkCuts.cut({
    key: [share.id, cut.start, cut.end, cut.showConsole, session.event_count].join(":"),
    window: cut,
    stored: () => storedBatches(deps, session, { from: from > 0 ? from : null }),
  });
}
