// The player is the line of defence against hostile recordings (ingest stores content as received):
// before events reach rrweb, anything that could run code or navigate is taken out of the recorded
// nodes and attribute changes. The sandboxed iframe (no allow-scripts) is the second line.
// A replayed page loads the recorded site's images, styles, fonts and media, as replay tools do,
// but no other document: frames, objects and embeds lose their sources (a recorded
// frame's content still replays from the recording), and no recorded referrer policy can send the
// replay's address along. REPLAY_FRAME_CSP / REPLAY_PAGE_CSP hold the same line in the browser.
import { EventType, IncrementalSource, NodeType } from "@rrweb/types";

/** rrweb's `serializedNodeWithId` (@rrweb/types) as a hostile recording may hold it: all loose. */
interface SerializedNode {
  type: number;
  id?: number;
  tagName?: string;
  attributes?: Record<string, unknown>;
  childNodes?: SerializedNode[];
}

/**
 * Values that run code when followed or loaded, whatever attribute carries them. URL parsers skip
 * leading C0 controls and spaces and drop tabs and newlines anywhere, so the test does too.
 */
// deno-lint-ignore no-control-regex
const SCRIPT_URL = /^[\u0000-\u0020]*(javascript|vbscript|data:\s*text\/html)/i;
function isScriptUrl(value: string): boolean {
  // Only a value whose first character past spaces and controls is a j, v or d can be one: most
  // values (a class, an id, a path) are told apart by that character alone.
  let at = 0;
  while (value.charCodeAt(at) <= 0x20) at++;
  const first = value.charCodeAt(at) | 0x20; // lower case
  if (first !== 0x6a && first !== 0x76 && first !== 0x64) return false;
  return SCRIPT_URL.test(value.replace(/[\t\n\r]/g, ""));
}
/** Attributes that navigate or load a document by themselves, per element. */
const NAVIGATING = new Map<string, string[]>([
  ["base", ["href", "target"]],
  ["form", ["action", "target"]],
  ["meta", ["http-equiv"]],
  // Another document, whoever serves it: an empty frame or object of the same size stays.
  ["iframe", ["src"]],
  ["frame", ["src"]],
  ["object", ["data", "src", "codebase", "classid", "archive"]],
  ["embed", ["src"]],
  ["portal", ["src"]],
]);

/** What a replayed page may load: the recorded site's look, nothing that runs or frames. */
const RECORDED_LOOK = "img-src * data: blob:; style-src * 'unsafe-inline' data: blob:; " +
  "font-src * data: blob:; media-src * data: blob:";
const NO_DOCUMENTS = "object-src 'none'; frame-src 'none'; base-uri 'none'";
/** Inside the server's first frame (a `<meta>` of its srcdoc). */
export const REPLAY_FRAME_CSP =
  `default-src 'none'; ${RECORDED_LOOK}; ${NO_DOCUMENTS}; form-action 'none'`;
/**
 * The replay page's own policy, which both replay frames (srcdoc and rrweb's about:blank) inherit:
 * the page's scripts, API calls and decoding worker from its origin, the recording's look from
 * anywhere, no objects or framed documents anywhere.
 */
export const REPLAY_PAGE_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; " +
  `worker-src 'self'; manifest-src 'self'; ${RECORDED_LOOK}; ${NO_DOCUMENTS}; form-action 'self'`;
/**
 * The replay page's policy when its server frame is a document of its own
 * (`routes/(dashboard)/replays/frame/[sessionId].ts`, itself sandboxed by its own policy): frames
 * of its origin load. Recorded frames still load nothing: the sanitizer drops their sources.
 */
export const REPLAY_PAGE_FRAMING_CSP = REPLAY_PAGE_CSP.replace(
  "frame-src 'none'",
  "frame-src 'self'",
);

/**
 * How deep a replayed node may sit: the HTML parser's own bound. A DOM built 30,000–60,000 deep by
 * mutations crashed the viewer's tab (and would overflow the server model's recursion); nodes
 * below this depth are left out of the replay, with their subtrees.
 */
export const MAX_DOM_DEPTH = 512;

interface AddedNode {
  parentId?: number;
  node?: SerializedNode;
}

/**
 * Keeps the tag and depth of every node id seen, so later attribute changes are judged by their
 * element and adds by where they land.
 */
export class RecordingSanitizer {
  #tags = new Map<number, string>();
  #depths = new Map<number, number>();

  /** Cleans the event in place; returns it for chaining. */
  clean<E extends { type: number; data: unknown }>(event: E): E {
    const data = event.data as Record<string, unknown> | null;
    if (!data || typeof data !== "object") return event;
    if (event.type === EventType.FullSnapshot) {
      this.#depths.clear();
      this.#node(data.node as SerializedNode, 0);
    }
    if (
      event.type === EventType.IncrementalSnapshot && data.source === IncrementalSource.Mutation
    ) {
      this.#mutation(data);
    }
    return event;
  }

  #mutation(data: Record<string, unknown>) {
    if (Array.isArray(data.adds)) data.adds = this.#adds(data.adds as AddedNode[]);
    for (const change of (data.attributes ?? []) as SerializedNode[]) {
      const tag = this.#tags.get(change.id ?? -1) ?? "";
      if (change.attributes) cleanAttributes(tag, change.attributes);
    }
  }

  /** Ids of the nodes the player adds, below any the recorder gives (positive ones). */
  #ownId = -1_000_000;

  /**
   * A masked select (its value asterisks) would show one of its real options, the first or a
   * default one, as if chosen: it gets a first option of its own, the masked value, selected.
   */
  #maskedSelect(node: SerializedNode) {
    const value = node.attributes?.value;
    if (typeof value !== "string" || !/^\*+$/.test(value)) return;
    const option: SerializedNode = {
      type: NodeType.Element,
      tagName: "option",
      // Shown by its label, with no text of its own: the page's text stays the recording's.
      attributes: { value, label: value, selected: true, "data-playhead-masked": "" },
      childNodes: [],
      id: this.#ownId--,
    };
    node.childNodes = [option, ...(node.childNodes ?? [])];
  }

  /**
   * The adds that land within MAX_DOM_DEPTH, cleaned. An add's parent is a node seen before or
   * another add of the same mutation (rrweb applies them in any order); one whose parent is
   * unknown is kept as it is (rrweb leaves it out itself).
   */
  #adds(adds: AddedNode[]): AddedNode[] {
    const byId = new Map<number, AddedNode>();
    for (const add of adds) {
      if (add && typeof add.node?.id === "number") byId.set(add.node.id, add);
    }
    const kept: AddedNode[] = [];
    for (const add of adds) {
      if (!add || typeof add !== "object") continue;
      const depth = this.#depthBelow(add.parentId, byId);
      if (depth !== null && depth > MAX_DOM_DEPTH) {
        // Remembered, so that what is added below it later is left out too.
        if (typeof add.node?.id === "number") this.#depths.set(add.node.id, depth);
        continue;
      }
      this.#node(add.node, depth ?? 0);
      kept.push(add);
    }
    return kept;
  }

  /**
   * The depth a child of `parentId` lands at, walking up through this mutation's adds to a node
   * seen before (each step remembered, so a chain of adds costs its length once); null when the
   * chain ends at no known node.
   */
  #depthBelow(parentId: number | undefined, byId: Map<number, AddedNode>): number | null {
    const chain: number[] = [];
    let id = parentId;
    while (typeof id === "number" && !this.#depths.has(id) && byId.has(id)) {
      if (chain.length > byId.size) return null; // a cycle of adds
      chain.push(id);
      id = byId.get(id)!.parentId;
    }
    if (typeof id !== "number" || !this.#depths.has(id)) return null;
    let depth = this.#depths.get(id)!;
    for (let i = chain.length - 1; i >= 0; i--) this.#depths.set(chain[i], ++depth);
    return depth + 1;
  }

  #node(node: SerializedNode | undefined, depth: number) {
    if (!node || typeof node !== "object") return;
    if (node.id !== undefined) this.#depths.set(node.id, depth);
    if (node.type === NodeType.Element && typeof node.tagName === "string") {
      let tag = node.tagName.toLowerCase();
      if (tag === "script") {
        // Inert and hidden by rrweb's rules; its text and source go too.
        node.tagName = tag = "noscript";
        node.attributes = {};
        node.childNodes = [];
      }
      // Without a source an <embed> is nothing (0×0); an <object> keeps its size.
      if (tag === "embed") node.tagName = tag = "object";
      if (node.id !== undefined) this.#tags.set(node.id, tag);
      if (node.attributes) cleanAttributes(tag, node.attributes);
      if (tag === "select") this.#maskedSelect(node);
    }
    if (!Array.isArray(node.childNodes)) return;
    if (depth >= MAX_DOM_DEPTH) node.childNodes = [];
    for (const child of node.childNodes) this.#node(child, depth + 1);
  }
}

function cleanAttributes(tag: string, attributes: Record<string, unknown>) {
  const navigating = NAVIGATING.get(tag) ?? [];
  for (const name of Object.keys(attributes)) {
    const value = attributes[name];
    const lower = name.toLowerCase();
    if (
      lower.startsWith("on") || lower === "srcdoc" || lower === "formaction" ||
      lower === "referrerpolicy" || lower === "ping" || navigating.includes(lower) ||
      (typeof value === "string" && isScriptUrl(value)) ||
      // <meta name="referrer"> would set the frame's referrer policy (the page forces none).
      (tag === "meta" && lower === "name" && String(value).trim().toLowerCase() === "referrer")
    ) {
      delete attributes[name];
    }
  }
}
