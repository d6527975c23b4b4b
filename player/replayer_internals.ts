// The few parts of rrweb's Replayer (2.2.x) that restoring a keyframe needs and its typings keep
// private: the player machine (to tell it which event was played last) and the event emitter (to
// announce the restored viewport size). Checked at run time, so another rrweb version without them
// turns keyframes off instead of breaking the player.
import type { Replayer } from "rrweb";
import type { RecordedEvent } from "./decode.ts";

export type ReplayMirror = ReturnType<Replayer["getMirror"]>;
export type NodeMeta = NonNullable<ReturnType<ReplayMirror["getMeta"]>>;

interface Internals {
  service: {
    state: { context: { lastPlayedEvent: RecordedEvent | null } };
    send(event: { type: "CAST_EVENT"; payload: { event: RecordedEvent } }): void;
  };
  emitter: { emit(type: string, data?: unknown): void };
  insertStyleRules(documentElement: Node, head: Node): void;
}

function internals(replayer: Replayer): Internals {
  return replayer as unknown as Internals;
}

/** The internals keyframes rely on are there. */
export function hasKeyframeSupport(replayer: Replayer): boolean {
  const r = internals(replayer);
  return typeof r.service?.send === "function" && r.service.state?.context !== undefined &&
    typeof r.emitter?.emit === "function" && typeof r.insertStyleRules === "function";
}

/** The event rrweb applied last (its fast-forward starts after it). */
export function lastPlayedEvent(replayer: Replayer): RecordedEvent | null {
  return internals(replayer).service.state.context.lastPlayedEvent;
}

/** Makes rrweb continue after `event`, as if it had just applied it. */
export function markPlayed(replayer: Replayer, event: RecordedEvent) {
  internals(replayer).service.send({ type: "CAST_EVENT", payload: { event } });
}

/** Sizes the iframe as a Meta or viewport-resize event would (and tells "resize" listeners). */
export function announceSize(replayer: Replayer, size: { width: number; height: number }) {
  internals(replayer).emitter.emit("resize", size);
}

/** rrweb's own rules (hidden noscript, blocked elements, paused animations) live in the CSSOM. */
export function insertOwnStyles(replayer: Replayer, documentElement: Element, head: Element) {
  internals(replayer).insertStyleRules(documentElement, head);
}
