// A recorded page without a DOM: a full snapshot's node tree, indexed by node id, that takes the
// recording's mutations, input values and scrolls the way rrweb's replayer applies
// them to its iframe (its `applyMutation`, `applyInput`, `applyScroll`), so the server can write
// the page at any moment as HTML (snapshot_html.ts). Events must be cleaned by
// `RecordingSanitizer` before they get here.
import { NodeType } from "@rrweb/types";
import type { SnapshotNode } from "./snapshot_html.ts";
import { applyStyleDiff, type StyleDiff } from "./style_attribute.ts";

/** A node of the model: a recorded node with its id, its children the same. */
export interface ModelNode extends SnapshotNode {
  id?: number;
  childNodes?: ModelNode[];
}

interface AddedNode {
  parentId: number;
  nextId?: number | null;
  previousId?: number | null;
  node: ModelNode;
}

export interface MutationData {
  adds?: AddedNode[];
  removes?: { parentId: number; id: number }[];
  texts?: { id: number; value: string | null }[];
  attributes?: { id: number; attributes: Record<string, string | null | StyleDiff> }[];
}

/** The model grew past its bound (a page this large is left to the player). */
export class TooManyNodes extends Error {}

export class DomModel {
  readonly #nodes = new Map<number, ModelNode>();
  readonly #parents = new WeakMap<ModelNode, ModelNode>();
  /**
   * Each changed node as it was recorded (rrweb's mirror keeps that too): an add of a node already
   * there, as recorded, moves it instead of making a second.
   */
  readonly #recorded = new WeakMap<ModelNode, Pick<ModelNode, "attributes" | "textContent">>();
  /** Each scrolled node's last offset, by id. */
  readonly scrolls = new Map<number, { x: number; y: number }>();

  constructor(readonly root: ModelNode, private readonly maxNodes: number) {
    this.#index(root, null);
  }

  get size(): number {
    return this.#nodes.size;
  }

  node(id: number): ModelNode | undefined {
    return this.#nodes.get(id);
  }

  /** The node's parent in the model (a heatmap's selector walks up, as the SDK's does). */
  parentOf(node: ModelNode): ModelNode | undefined {
    return this.#parents.get(node);
  }

  #index(node: ModelNode, parent: ModelNode | null) {
    if (!node || typeof node !== "object") return;
    if (parent) this.#parents.set(node, parent);
    if (typeof node.id === "number") this.#nodes.set(node.id, node);
    if (this.#nodes.size > this.maxNodes) throw new TooManyNodes();
    for (const child of node.childNodes ?? []) this.#index(child, node);
  }

  #forget(node: ModelNode) {
    if (typeof node.id === "number") this.#nodes.delete(node.id);
    for (const child of node.childNodes ?? []) this.#forget(child);
  }

  #detach(node: ModelNode) {
    const parent = this.#parents.get(node);
    if (!parent?.childNodes) return;
    const at = parent.childNodes.indexOf(node);
    if (at >= 0) parent.childNodes.splice(at, 1);
    this.#parents.delete(node);
  }

  mutation(data: MutationData) {
    for (const { parentId, id } of data.removes ?? []) {
      const target = this.#nodes.get(id);
      if (!target || !this.#nodes.get(parentId)) continue;
      this.#forget(target);
      if (this.#parents.get(target) === this.#nodes.get(parentId)) this.#detach(target);
    }
    // An add whose parent or next sibling is not there yet waits for the others (rrweb's queue).
    let queue = [...(data.adds ?? [])];
    for (let round = 0; queue.length > 0 && round < 1_000; round++) {
      const waiting = queue.filter((add) => !this.#add(add));
      if (waiting.length === queue.length) break;
      queue = waiting;
    }
    const texts = new Map<number, string | null>();
    for (const { id, value } of data.texts ?? []) texts.set(id, value);
    for (const [id, value] of texts) this.#text(id, value ?? "");
    for (const { id, attributes } of data.attributes ?? []) this.#attributes(id, attributes);
  }

  /** False when the add must wait. */
  #add({ parentId, nextId, previousId, node }: AddedNode): boolean {
    const parent = this.#nodes.get(parentId);
    if (!parent || !node || typeof node !== "object") {
      return !parent && node?.type === NodeType.Document; // a new document has nowhere to go
    }
    const next = typeof nextId === "number" ? this.#nodes.get(nextId) : undefined;
    if (typeof nextId === "number" && nextId !== -1 && !next) return false;
    if (nextId === -1 || previousId === -1) return true; // legacy data rrweb no longer records
    if (node.isShadow && !parent.isShadowHost) parent.isShadowHost = true;
    const children = parent.childNodes ??= [];
    if (parent.type === NodeType.Element && node.type === NodeType.Text) {
      // A textarea shows one text: rrweb drops the others.
      if (parent.tagName === "textarea") {
        for (const child of children.filter((c) => c.type === NodeType.Text)) this.#remove(child);
      }
    } else if (parent.type === NodeType.Document) {
      // One doctype and one root element per document.
      const same = children.find((c) =>
        c.type === node.type && (node.type === NodeType.DocumentType || c.tagName === "html")
      );
      if (same && (node.type === NodeType.DocumentType || node.tagName === "html")) {
        this.#remove(same);
      }
    }
    const same = typeof node.id === "number" ? this.#nodes.get(node.id) : undefined;
    let target = node;
    if (same && this.#sameAsRecorded(same, node)) {
      this.#detach(same);
      this.#parents.set(same, parent);
      target = same;
    } else {
      // rrweb builds an added node alone (its children come as adds of their own), except a
      // document put into a frame.
      if (node.type !== NodeType.Document) node.childNodes = [];
      this.#index(node, parent);
    }
    const previous = typeof previousId === "number" ? this.#nodes.get(previousId) : undefined;
    const afterPrevious = previous && this.#parents.get(previous) === parent
      ? children.indexOf(previous) + 1
      : -1;
    const beforeNext = next && this.#parents.get(next) === parent ? children.indexOf(next) : -1;
    const at = afterPrevious > 0 && afterPrevious < children.length
      ? afterPrevious
      : beforeNext >= 0
      ? beforeNext
      : children.length;
    children.splice(at, 0, target);
    return true;
  }

  /** rrweb's `isNodeMetaEqual`, against the node as it was recorded. */
  #sameAsRecorded(existing: ModelNode, added: ModelNode): boolean {
    if (existing.type !== added.type) return false;
    const recorded = { ...existing, ...this.#recorded.get(existing) };
    if (added.type === NodeType.Element) {
      return recorded.tagName === added.tagName && recorded.isSVG === added.isSVG &&
        JSON.stringify(recorded.attributes) === JSON.stringify(added.attributes);
    }
    if (added.type === NodeType.Text || added.type === NodeType.Comment) {
      return recorded.textContent === added.textContent;
    }
    return false;
  }

  /** The node's attributes, to change: the recorded ones are kept aside the first time. */
  #attributesOf(node: ModelNode): Record<string, unknown> {
    if (!this.#recorded.has(node)) {
      this.#recorded.set(node, { attributes: node.attributes, textContent: node.textContent });
      node.attributes = { ...node.attributes };
    }
    return node.attributes ??= {};
  }

  #remove(node: ModelNode) {
    this.#forget(node);
    this.#detach(node);
  }

  #text(id: number, value: string) {
    const target = this.#nodes.get(id);
    if (!target) return;
    if (target.type === NodeType.Text || target.type === NodeType.Comment) {
      this.#attributesOf(target);
      target.textContent = value;
      return;
    }
    for (const child of target.childNodes ?? []) this.#forget(child);
    target.childNodes = value ? [{ type: NodeType.Text, textContent: value }] : [];
  }

  #attributes(id: number, changes: Record<string, string | null | StyleDiff>) {
    const target = this.#nodes.get(id);
    if (!target || target.type !== NodeType.Element) return;
    const attributes = this.#attributesOf(target);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) delete attributes[name];
      else if (typeof value === "string") attributes[name] = value;
      else if (name === "style" && typeof value === "object") {
        attributes.style = applyStyleDiff(String(attributes.style ?? ""), value);
      }
    }
  }

  /** An input's value or a box's checked state (rrweb sets both properties). */
  input({ id, text, isChecked }: { id: number; text?: unknown; isChecked?: unknown }) {
    const target = this.#nodes.get(id);
    if (!target || target.type !== NodeType.Element) return;
    const attributes = this.#attributesOf(target);
    if (typeof text === "string") attributes.value = text;
    if (isChecked === true) attributes.checked = true;
    else if (isChecked === false) delete attributes.checked;
  }

  scroll({ id, x, y }: { id: number; x?: unknown; y?: unknown }) {
    if (!this.#nodes.has(id)) return;
    this.scrolls.set(id, { x: Number(x) || 0, y: Number(y) || 0 });
  }
}
