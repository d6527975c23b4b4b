// The page as it stood at a window's start, as events stamped at that start (docs/decisions.md
// "Shares"): the recording before the start is applied on the DOM model (dom_model.ts) and written
// back as one Meta and one full snapshot, then what a snapshot does not hold — input values, the
// scroll of each box, style-sheet changes the model does not follow, the pointer — so a link's
// player is sent none of the events before its window, only the page they left.
import { EventType, IncrementalSource, NodeType } from "@rrweb/types";
import type { RecordedEvent } from "@/recording/decode.ts";
import { DomModel, type ModelNode, type MutationData, TooManyNodes } from "./dom_model.ts";

/** Nodes the model may hold (as the first frame: a page of 150,000 nodes gets its start). */
export const WINDOW_START_MAX_NODES = 200_000;

/** Changes the model does not follow: sent again, restamped, after the synthesized snapshot. */
const CARRIED = new Set<number>([
  IncrementalSource.StyleSheetRule,
  IncrementalSource.StyleDeclaration,
  IncrementalSource.AdoptedStyleSheet,
  IncrementalSource.Font,
]);

const POINTER_MOVES = new Set<number>([
  IncrementalSource.MouseMove,
  IncrementalSource.TouchMove,
  IncrementalSource.Drag,
]);

/** Ids of nodes the recording gave none (an element's text set whole), below any recorded one. */
const FIRST_OWN_ID = -1_000_000_000;

type Data = Record<string, unknown>;

/** Takes the events stamped before `start`, in replay order; `events()` is the page at `start`. */
export class WindowStart {
  #model: DomModel | null = null;
  #meta: Data | null = null;
  #size: { width: number; height: number } | null = null;
  /** A Meta after the model's snapshot: its page's snapshot is still to come. */
  #newPage = false;
  #inputs = new Map<number, Data>();
  #carried: Data[] = [];
  #pointer: { x: number; y: number; id: number } | null = null;
  /** Why there is no start (the link then starts at the window's first snapshot). */
  failure: "too-many-nodes" | null = null;

  constructor(readonly start: number, private readonly maxNodes = WINDOW_START_MAX_NODES) {}

  push(event: RecordedEvent): void {
    const data = event.data as Data | null;
    if (!data || typeof data !== "object") return;
    try {
      if (event.type === EventType.Meta) {
        // A new page: a bound the last one passed no longer matters.
        this.failure = null;
        this.#model = null;
        this.#meta = data;
        this.#size = { width: Number(data.width), height: Number(data.height) };
        this.#newPage = true;
      } else if (event.type === EventType.FullSnapshot) this.#snapshot(data);
      else if (event.type === EventType.IncrementalSnapshot && this.#model && !this.#newPage) {
        this.#incremental(this.#model, data);
      }
    } catch (error) {
      if (!(error instanceof TooManyNodes)) throw error;
      this.failure = "too-many-nodes";
      this.#model = null;
    }
  }

  #snapshot(data: Data) {
    this.failure = null;
    this.#model = null;
    if (!data.node || typeof data.node !== "object") return; // still waiting for its page
    this.#model = new DomModel(data.node as ModelNode, this.maxNodes);
    const offset = data.initialOffset as { left?: number; top?: number } | undefined;
    const root = (data.node as ModelNode).id;
    if (root !== undefined) this.#model.scroll({ id: root, x: offset?.left, y: offset?.top });
    this.#newPage = false;
    this.#inputs.clear();
    this.#carried = [];
  }

  #incremental(model: DomModel, data: Data) {
    const source = data.source as number;
    if (CARRIED.has(source)) this.#carried.push(data);
    else if (source === IncrementalSource.Mutation) model.mutation(data as MutationData);
    else if (source === IncrementalSource.Input) {
      model.input(data as { id: number });
      this.#inputs.set(data.id as number, { ...this.#inputs.get(data.id as number), ...data });
    } else if (source === IncrementalSource.Scroll) model.scroll(data as { id: number });
    else if (source === IncrementalSource.ViewportResize) {
      this.#size = { width: Number(data.width), height: Number(data.height) };
    } else if (POINTER_MOVES.has(source) && Array.isArray(data.positions)) {
      const last = data.positions.at(-1) as { x?: unknown; y?: unknown; id?: unknown } | undefined;
      this.#point(last?.x, last?.y, last?.id);
    } else if (source === IncrementalSource.MouseInteraction) this.#point(data.x, data.y, data.id);
  }

  #point(x: unknown, y: unknown, id: unknown) {
    if (typeof x === "number" && typeof y === "number" && typeof id === "number") {
      this.#pointer = { x, y, id };
    }
  }

  /**
   * The page at the start, every event stamped at it: its Meta and full snapshot, then the input
   * values, scrolls, carried style changes and pointer. Only a Meta when its page's snapshot comes
   * at or after the start; nothing before any snapshot or past the node bound. Hands the model's
   * nodes over: call it once, after the last push.
   */
  events(): RecordedEvent[] {
    const at = (type: number, data: unknown): RecordedEvent => ({
      type,
      data,
      timestamp: this.start,
    });
    const size = this.#size && this.#size.width > 0 && this.#size.height > 0 ? this.#size : null;
    const meta = this.#meta && size ? [at(EventType.Meta, { ...this.#meta, ...size })] : [];
    const model = this.#model;
    if (this.failure) return [];
    if (this.#newPage || !model) return this.#newPage ? meta : [];
    giveIds(model.root);
    const frames = framedDocuments(model.root);
    const incremental = (data: Data) => at(EventType.IncrementalSnapshot, data);
    const root = model.scrolls.get(model.root.id ?? NaN);
    const events = [
      ...meta,
      at(EventType.FullSnapshot, {
        node: model.root,
        initialOffset: { left: root?.x ?? 0, top: root?.y ?? 0 },
      }),
      // Each frame's document as rrweb records it: added to its frame once the page is built.
      ...frames.map(({ parentId, node }) =>
        incremental({
          source: IncrementalSource.Mutation,
          adds: [{ parentId, nextId: null, node }],
          removes: [],
          texts: [],
          attributes: [],
        })
      ),
    ];
    for (const [id, input] of this.#inputs) {
      if (model.node(id)) events.push(incremental(input));
    }
    for (const [id, { x, y }] of model.scrolls) {
      if (id !== model.root.id && model.node(id)) {
        events.push(incremental({ source: IncrementalSource.Scroll, id, x, y }));
      }
    }
    events.push(...this.#carried.map(incremental));
    if (this.#pointer && model.node(this.#pointer.id)) {
      events.push(incremental({
        source: IncrementalSource.MouseMove,
        positions: [{ ...this.#pointer, timeOffset: 0 }],
      }));
    }
    return events;
  }
}

/** Ids for the nodes that have none (a full snapshot's every node has one). */
function giveIds(root: ModelNode) {
  let next = FIRST_OWN_ID;
  const walk = (node: ModelNode) => {
    if (typeof node.id !== "number") node.id = next--;
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(root);
}

/**
 * The documents of frames, taken out of the tree, outer ones first: a full snapshot holds none (rrweb
 * would rebuild the page's own document in their place), each comes as an add to its frame.
 */
function framedDocuments(root: ModelNode): { parentId: number; node: ModelNode }[] {
  const found: { parentId: number; node: ModelNode }[] = [];
  const walk = (node: ModelNode) => {
    const children = node.childNodes ?? [];
    if (node !== root && node.type === NodeType.Element) {
      const documents = children.filter((child) => child.type === NodeType.Document);
      if (documents.length) node.childNodes = children.filter((c) => !documents.includes(c));
      for (const document of documents) found.push({ parentId: node.id!, node: document });
    }
    for (const child of children) walk(child);
  };
  walk(root);
  return found;
}
