// What the replay fetches, in what order: the requests of a session's events as a plain list, so
// the order is decided (and tested) apart from the fetching. Opening at a moment loads the batches
// from its last full snapshot on first (`from`; the first of them ends the hole before it), then
// the ones before (`before`); otherwise everything in one request. A seek past what is loaded
// while everything streams in jumps: the moment's batches next, then the ones in between.
import { firstEventsPath } from "./events_url.ts";

export type StepKind =
  /** Every batch (or every one after the last loaded, following an open session). */
  | "all"
  /** The batches from a moment's last full snapshot on: its first ends the hole. */
  | "moment"
  /** The batches the moment's request left out: once in, the hole is closed. */
  | "before";

export interface LoadStep {
  kind: StepKind;
  url: string;
}

export interface PlanSource {
  sessionId: string;
  /** Real offset opened at (`?t=`); 0 at the start. */
  startAt: number;
  /** One address for the whole recording (a public link's or an export's): no jumps. */
  eventsPath?: string;
  /** The page's address, to resolve paths against. */
  base: string;
}

/** The session's events URL, as every step builds on it. */
export function eventsUrl(source: PlanSource): URL {
  return new URL(source.eventsPath ?? firstEventsPath(source.sessionId, 0), source.base);
}

/** A moment's two requests: from its snapshot on, then what lies before. */
export function momentSteps(source: PlanSource, real: number): LoadStep[] {
  const before = eventsUrl(source);
  before.searchParams.set("before", String(real));
  return [
    { kind: "moment", url: new URL(firstEventsPath(source.sessionId, real), source.base).href },
    { kind: "before", url: before.href },
  ];
}

/** The requests to make when the page opens (the first is the one the server preloaded). */
export function openingPlan(source: PlanSource): LoadStep[] {
  return source.startAt > 0
    ? momentSteps(source, source.startAt)
    : [{ kind: "all", url: eventsUrl(source).href }];
}

export interface JumpState {
  /** Already jumped once (the hole that leaves is closed only by its own `before`). */
  jumped: boolean;
  /** A request is under way. */
  loading: boolean;
  /** Requests still planned after it. */
  planned: number;
  /** The player is built (a seek before that waits for the first frame anyway). */
  ready: boolean;
}

/**
 * A seek to a moment not loaded may jump only while the one whole-recording request streams: not
 * when opened at a moment (already planned that way), not on a single-address recording, not twice.
 */
export function mayJump(source: PlanSource, state: JumpState): boolean {
  return !state.jumped && !(source.startAt > 0) && !source.eventsPath && state.loading &&
    state.planned === 0 && state.ready;
}

/** The requests after a moment's; following an open session asks for what came after `lastBatchId`. */
export function followUrl(source: PlanSource, lastBatchId: string | null): string {
  const url = eventsUrl(source);
  if (lastBatchId) url.searchParams.set("after", lastBatchId);
  return url.href;
}
