// Scrolls rrweb applies while it fast-forwards (a seek, a keyframe scout's step) are held and
// applied once at the end, each node's last: every scroll forces a layout of the replayed document,
// so a span with mutations between its scrolls paid a whole layout per scroll (on a page of 8,000
// text nodes, ~3 s over 20 seeks). Where the scroll lands is all a later event can see of it.
import type { Replayer } from "rrweb";
import { routeScrolls } from "./replayer_internals.ts";

interface Offset {
  top: number;
  left: number;
}

export class HeldScrolls {
  #pending = new Map<Node, Offset>();
  /** Nodes scrolled so far, for `resetAll` (the viewport's own, too, is reset there). */
  #scrolled = new Set<Node>();
  #holding = false;

  /** Wraps `replayer`'s scrolling; where rrweb has no `applyScroll`, scrolls apply at once. */
  constructor(replayer: Replayer) {
    const routed = routeScrolls(replayer, (data, isSync, apply) => {
      const target = this.#holding && isSync ? replayer.getMirror().getNode(data.id) : null;
      if (target) return this.hold(target, data.y, data.x);
      apply(data, isSync);
      const scrolled = replayer.getMirror().getNode(data.id);
      if (scrolled) this.#scrolled.add(scrolled);
    });
    if (!routed) return;
    // A rebuilt page keeps its Document object but not its scroll: rrweb scrolls the new page to
    // its recorded offset itself, and what was held for the old one no longer applies.
    replayer.on("fullsnapshot-rebuilded", () => this.#pending.clear());
  }

  /** Runs `work` (rrweb fast-forwarding) with scrolls held, then applies them. */
  around<T>(work: () => T): T {
    this.#holding = true;
    try {
      return work();
    } finally {
      this.#holding = false;
      this.#flush();
    }
  }

  /** Scrolls `node` at the end of the current `around` (the later of two scrolls wins). */
  hold(node: Node, top: number, left: number) {
    this.#pending.delete(node);
    this.#pending.set(node, { top, left });
  }

  /** Holds a scroll back to the top for `document` and every node scrolled so far. */
  resetAll(document: Document) {
    this.hold(document, 0, 0);
    for (const node of this.#scrolled) {
      if (node.isConnected) this.hold(node, 0, 0);
    }
    this.#scrolled.clear();
  }

  #flush() {
    for (const [node, offset] of this.#pending) {
      const target = node.nodeType === Node.DOCUMENT_NODE
        ? (node as Document).defaultView
        : node as Element;
      this.#scrolled.add(node);
      try {
        target?.scrollTo({ ...offset, behavior: "instant" });
      } catch {
        // a node of another realm or already gone: rrweb ignores these too
      }
    }
    this.#pending.clear();
  }
}
