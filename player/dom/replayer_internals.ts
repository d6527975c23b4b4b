// The few parts of rrweb's Replayer (2.2.x) that keyframes and exact seeks need and its typings
// keep private: the player machine (to tell it which event was played last), the event emitter (to
// announce the restored viewport size), its own style rules and its scrolling (held to a seek's
// end). Checked at run time, so another rrweb version without them turns keyframes off (or leaves
// scrolls as rrweb applies them) instead of breaking the player.
import { EventType, IncrementalSource } from "@rrweb/types";
import type { Replayer } from "rrweb";
import type { RecordedEvent } from "@/recording/decode.ts";

export type ReplayMirror = ReturnType<Replayer["getMirror"]>;
export type NodeMeta = NonNullable<ReturnType<ReplayMirror["getMeta"]>>;

interface Internals {
  service: {
    state: { context: { lastPlayedEvent: RecordedEvent | null; events: RecordedEvent[] } };
    /** CAST_EVENT tells it which event was applied last; other messages go through untouched. */
    send(message: { type: string; payload?: { event?: RecordedEvent } }): void;
  };
  emitter: { emit(type: string, data?: unknown): void };
  insertStyleRules(documentElement: Node, head: Node): void;
  moveAndHover?(x: number, y: number, id: number, isSync: boolean, debugData: unknown): void;
}

function internals(replayer: Replayer): Internals {
  return replayer as unknown as Internals;
}

/** The internals keyframes rely on are there. */
export function hasKeyframeSupport(replayer: Replayer): boolean {
  const r = internals(replayer);
  return typeof r.service?.send === "function" && Array.isArray(r.service.state?.context?.events) &&
    typeof r.emitter?.emit === "function" && typeof r.insertStyleRules === "function";
}

/** The event rrweb applied last (its fast-forward starts after it). */
export function lastPlayedEvent(replayer: Replayer): RecordedEvent | null {
  return internals(replayer).service.state.context.lastPlayedEvent;
}

/**
 * Inserts `events` (sorted) into rrweb's stream at their places without applying them: its
 * `addEvent` applies at once every event before the moment shown, which for the batches before the
 * moment a replay opened at would replay earlier pages over the one shown. rrweb's time 0 moves to
 * its first event. False when rrweb keeps its stream elsewhere (the caller then adds them itself).
 */
export function insertUnapplied(replayer: Replayer, events: RecordedEvent[]): boolean {
  const stream = internals(replayer).service?.state?.context?.events;
  if (!Array.isArray(stream)) return false;
  let at = afterTimestamp(stream, events[0]?.timestamp ?? 0);
  for (const event of events) {
    // Usually one run after the last one inserted: only a stray event is searched for again.
    if (stream[at]?.timestamp < event.timestamp) at = afterTimestamp(stream, event.timestamp);
    stream.splice(at++, 0, event);
  }
  return true;
}

/** Index after every event of `stream` stamped at or before `timestamp`. */
function afterTimestamp(stream: RecordedEvent[], timestamp: number): number {
  let low = 0, high = stream.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (stream[mid].timestamp <= timestamp) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Makes rrweb continue after `event`, as if it had just applied it. */
export function markPlayed(replayer: Replayer, event: RecordedEvent) {
  internals(replayer).service.send({ type: "CAST_EVENT", payload: { event } });
}

/**
 * Makes every later play or pause of `replayer` start right after the last event it applied.
 * When that event is a mouse move, rrweb starts from its first position's time instead, up to a
 * second earlier, and applies again what it already applied in between: mutations added twice (a
 * CodeMirror line shown twice after a seek), style rules inserted twice. So rrweb is told of each
 * move it applies with that first position at the move's own time.
 */
export function playExactly(replayer: Replayer) {
  const service = internals(replayer).service;
  if (typeof service?.send !== "function") return;
  const send = service.send.bind(service);
  service.send = (message) => {
    const event = message.type === "CAST_EVENT" ? message.payload?.event : undefined;
    const exact = event && exactly(event);
    send(exact && exact !== event ? { ...message, payload: { event: exact } } : message);
  };
}

interface MoveData {
  source?: number;
  positions?: { timeOffset?: number }[];
}

/** `event`, or for a mouse move a copy whose first position is at its own timestamp. */
function exactly(event: RecordedEvent): RecordedEvent {
  const data = event.data as MoveData;
  if (
    event.type !== EventType.IncrementalSnapshot || data?.source !== IncrementalSource.MouseMove
  ) {
    return event;
  }
  const [first, ...rest] = data.positions ?? [];
  if (!first?.timeOffset) return event;
  return { ...event, data: { ...data, positions: [{ ...first, timeOffset: 0 }, ...rest] } };
}

/** Sizes the iframe as a Meta or viewport-resize event would (and tells "resize" listeners). */
export function announceSize(replayer: Replayer, size: { width: number; height: number }) {
  internals(replayer).emitter.emit("resize", size);
}

/** rrweb's own rules (hidden noscript, blocked elements, paused animations) live in the CSSOM. */
export function insertOwnStyles(replayer: Replayer, documentElement: Element, head: Element) {
  internals(replayer).insertStyleRules(documentElement, head);
}

/**
 * Puts rrweb's cursor (and hover state) where the pointer was: after a keyframe restore the span
 * replayed may hold no pointer event, and rrweb would leave the cursor where it last drew it.
 */
export function placePointer(replayer: Replayer, pointer: { x: number; y: number; id: number }) {
  internals(replayer).moveAndHover?.(pointer.x, pointer.y, pointer.id, true, null);
}

/**
 * Ends at once the CSS transitions a seek started in the replayed document: a seek shows the page
 * as it stood at its moment, but nodes a keyframe patch or rrweb's fast-forward changed in place
 * would otherwise ease into that state (a class removed fades its element out over a second),
 * where a rebuilt page is drawn already there. Reading the animations flushes pending style first,
 * so the transitions this seek caused are among them.
 */
export function finishTransitions(document: Document) {
  for (const animation of document.getAnimations()) {
    if ("transitionProperty" in animation) animation.finish();
  }
}

export interface ScrollData {
  id: number;
  x: number;
  y: number;
}

type ApplyScroll = (data: ScrollData, isSync: boolean) => void;

/**
 * Routes every scroll rrweb applies through `route`, which gets rrweb's own way to apply it;
 * false (scrolls untouched) where rrweb has no `applyScroll`.
 */
export function routeScrolls(
  replayer: Replayer,
  route: (data: ScrollData, isSync: boolean, apply: ApplyScroll) => void,
): boolean {
  const scrolling = replayer as unknown as { applyScroll?: ApplyScroll };
  const apply = scrolling.applyScroll?.bind(replayer);
  if (!apply) return false;
  scrolling.applyScroll = (data, isSync) => route(data, isSync, apply);
  return true;
}
