// The frame at a moment, drawn by the server: the last full snapshot at or before it with every
// later event stamped at or before it applied on a DOM-free model (dom_model.ts), written as an
// HTML document like the first frame (first_frame.ts), cleaned by the player's own rules. Fed the
// events in replay order from the batch holding that snapshot; bounded in events, bytes, nodes
// and time, past which it gives up with a reason (the player then draws the moment itself).
import { EventType, IncrementalSource, NodeType } from "@rrweb/types";
import type { RecordedEvent } from "@/recording/decode.ts";
import type { FirstFrame } from "./first_frame.ts";
import { RecordingSanitizer } from "@/recording/sanitize.ts";
import { snapshotHtml } from "./snapshot_html.ts";
import { DomModel, type ModelNode, type MutationData, TooManyNodes } from "./dom_model.ts";

export interface MomentLimits {
  /** Nodes the model may hold (a node costs ~0.5 KB of server memory). */
  maxNodes: number;
  /** Inflated JSON read from the snapshot to the moment. */
  maxBytes: number;
  /** Wall time of one frame, reading included. */
  maxMs: number;
  /** The frame's HTML, which the page carries (a larger page is left to the player). */
  maxHtmlChars: number;
}

export const MOMENT_LIMITS: MomentLimits = {
  maxNodes: 100_000,
  maxBytes: 64 * 1024 * 1024,
  maxMs: 3_000,
  maxHtmlChars: 8 * 1024 * 1024,
};

/** Why no frame was drawn; the page then opens as before (the player draws the moment). */
export type NoFrame =
  | "no-snapshot"
  | "no-meta"
  | "too-many-nodes"
  | "too-many-bytes"
  | "too-slow"
  | "too-large"
  | "unsupported-event"
  | "scrolled";

/** Changes that alter the page's look in ways the model does not follow: no frame then. */
const UNMODELLED = new Set<number>([
  IncrementalSource.StyleSheetRule,
  IncrementalSource.StyleDeclaration,
  IncrementalSource.AdoptedStyleSheet,
  IncrementalSource.Font,
]);

/** Builds the frame at `target` (epoch ms, inclusive) from events pushed in order. */
export class MomentFrameBuilder {
  #model: DomModel | null = null;
  #sanitizer = new RecordingSanitizer();
  #size: { width: number; height: number } | null = null;
  /** A Meta seen after the drawn snapshot: the moment shows the snapshot that follows it. */
  #newPage = false;
  #done = false;
  failure: NoFrame | null = null;

  constructor(readonly target: number, private readonly limits = MOMENT_LIMITS) {}

  /** Past the moment, a Meta still waits for its page's snapshot. */
  get awaitingPage(): boolean {
    return this.#newPage;
  }

  /** No more events are needed (the frame is complete, or cannot be drawn). */
  get done(): boolean {
    return this.#done || this.failure !== null;
  }

  /** Takes the next event; returns `done`. */
  push(event: RecordedEvent): boolean {
    if (this.done) return true;
    if (
      event.timestamp > this.target && !(this.#newPage && event.type === EventType.FullSnapshot)
    ) {
      // rrweb records a page's Meta and full snapshot as one step: a moment between them shows
      // the snapshot (player/load/recording.ts `shownUntil`).
      if (!this.#newPage) return this.#done = true;
      return false;
    }
    try {
      this.#apply(event);
    } catch (error) {
      if (!(error instanceof TooManyNodes)) throw error;
      this.failure = "too-many-nodes";
    }
    if (event.timestamp > this.target) this.#done = true; // the page's snapshot after its Meta
    return this.done;
  }

  fail(reason: NoFrame) {
    this.failure ??= reason;
  }

  #apply(event: RecordedEvent) {
    const data = event.data as Record<string, unknown>;
    if (event.type === EventType.Meta) {
      this.#size = { width: Number(data.width), height: Number(data.height) };
      this.#newPage = true;
    } else if (event.type === EventType.FullSnapshot) {
      this.#sanitizer = new RecordingSanitizer();
      this.#sanitizer.clean(event);
      this.#model = new DomModel(data.node as ModelNode, this.limits.maxNodes);
      const offset = data.initialOffset as { left?: number; top?: number } | undefined;
      const root = (data.node as ModelNode).id;
      if (root !== undefined) this.#model.scroll({ id: root, x: offset?.left, y: offset?.top });
      this.#newPage = false;
    } else if (event.type === EventType.IncrementalSnapshot && this.#model && !this.#newPage) {
      this.#incremental(this.#model, this.#sanitizer.clean(event).data as Record<string, unknown>);
    }
  }

  #incremental(model: DomModel, data: Record<string, unknown>) {
    const source = data.source as number;
    if (UNMODELLED.has(source)) return this.fail("unsupported-event");
    switch (source) {
      case IncrementalSource.Mutation:
        return model.mutation(data as MutationData);
      case IncrementalSource.Input:
        return model.input(data as { id: number });
      case IncrementalSource.Scroll:
        return model.scroll(data as { id: number });
      case IncrementalSource.ViewportResize:
        this.#size = { width: Number(data.width), height: Number(data.height) };
        return;
    }
  }

  /** The frame, or null with `failure` set. */
  frame(): FirstFrame | null {
    if (this.failure) return null;
    if (!this.#model) return this.fail("no-snapshot"), null;
    const size = this.#size;
    if (!size || !(size.width > 0 && size.height > 0)) return this.fail("no-meta"), null;
    const html = momentHtml(this.#model);
    if (html.length > this.limits.maxHtmlChars) return this.fail("too-large"), null;
    return { ...size, html };
  }
}

/** Marks, for a frame without scripts, where each scrolled box starts (CSS `scroll-initial-target`). */
const SCROLL_MARK = "data-playhead-scroll";

/**
 * The model as HTML. Scroll offsets have no markup of their own: they are written as marks the
 * frame's CSS applies (a frame that runs no script cannot scroll itself), taken out again so the
 * model stays the recorded page. A canvas's recorded drawing stays out, as in the first frame: the
 * player draws none at a paused moment either, and the swap must not change what is seen.
 */
function momentHtml(model: DomModel): string {
  const undo: (() => void)[] = [];
  try {
    for (const [id, { x, y }] of model.scrolls) {
      if (!x && !y) continue;
      const node = model.node(id);
      const box = node === model.root ? bodyOf(model.root) : node;
      if (!box || box.type !== NodeType.Element) continue;
      const mark = scrollMark(x, y, node === model.root);
      const children = box.childNodes ??= [];
      // The page's own mark goes last (out of flow); a box's first, where its content starts.
      if (node === model.root) children.push(mark);
      else children.unshift(mark);
      undo.push(() => children.splice(children.indexOf(mark), 1));
    }
    return snapshotHtml(model.root);
  } finally {
    for (const step of undo.reverse()) step();
  }
}

function bodyOf(root: ModelNode): ModelNode | undefined {
  const html = root.childNodes?.find((n) => n.type === NodeType.Element && n.tagName === "html");
  return html?.childNodes?.find((n) => n.type === NodeType.Element && n.tagName === "body");
}

function scrollMark(x: number, y: number, page: boolean): ModelNode {
  const place = page
    ? `position: absolute; left: ${x}px; top: ${y}px`
    : `position: relative; display: block; left: ${x}px; top: ${y}px`;
  return {
    type: NodeType.Element,
    tagName: "div",
    attributes: {
      [SCROLL_MARK]: "",
      style: `${place}; width: 0; height: 0; margin: 0; padding: 0; border: 0; ` +
        "scroll-initial-target: nearest; scroll-snap-align: start",
    },
    childNodes: [],
  };
}
