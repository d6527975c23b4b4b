// The player is the line of defence against hostile recordings (ingest stores content as received):
// before events reach rrweb, anything that could run code or navigate is taken out of the recorded
// nodes and attribute changes. The sandboxed iframe (no allow-scripts) is the second line.

interface SerializedNode {
  type: number;
  id?: number;
  tagName?: string;
  attributes?: Record<string, unknown>;
  childNodes?: SerializedNode[];
}

const ELEMENT = 2;
/**
 * Values that run code when followed or loaded, whatever attribute carries them. URL parsers skip
 * leading C0 controls and spaces and drop tabs and newlines anywhere, so the test does too.
 */
// deno-lint-ignore no-control-regex
const SCRIPT_URL = /^[\u0000-\u0020]*(javascript|vbscript|data:\s*text\/html)/i;
const isScriptUrl = (value: string) => SCRIPT_URL.test(value.replace(/[\t\n\r]/g, ""));
/** Attributes that navigate or load a document by themselves, per element. */
const NAVIGATING: Record<string, string[]> = {
  base: ["href", "target"],
  form: ["action", "target"],
  meta: ["http-equiv"],
};

/** Keeps the tag of every node id seen, so later attribute changes are judged by their element. */
export class RecordingSanitizer {
  #tags = new Map<number, string>();

  /** Cleans the event in place; returns it for chaining. */
  clean<E extends { type: number; data: unknown }>(event: E): E {
    const data = event.data as Record<string, unknown> | null;
    if (!data || typeof data !== "object") return event;
    if (event.type === 2) this.#node(data.node as SerializedNode);
    if (event.type === 3 && data.source === 0) this.#mutation(data);
    return event;
  }

  #mutation(data: Record<string, unknown>) {
    for (const add of (data.adds ?? []) as { node?: SerializedNode }[]) this.#node(add.node);
    for (const change of (data.attributes ?? []) as SerializedNode[]) {
      const tag = this.#tags.get(change.id ?? -1) ?? "";
      if (change.attributes) cleanAttributes(tag, change.attributes);
    }
  }

  #node(node: SerializedNode | undefined) {
    if (!node || typeof node !== "object") return;
    if (node.type === ELEMENT && typeof node.tagName === "string") {
      let tag = node.tagName.toLowerCase();
      if (tag === "script") {
        // Inert and hidden by rrweb's rules; its text and source go too.
        node.tagName = tag = "noscript";
        node.attributes = {};
        node.childNodes = [];
      }
      if (node.id !== undefined) this.#tags.set(node.id, tag);
      if (node.attributes) cleanAttributes(tag, node.attributes);
    }
    for (const child of node.childNodes ?? []) this.#node(child);
  }
}

function cleanAttributes(tag: string, attributes: Record<string, unknown>) {
  const navigating = NAVIGATING[tag] ?? [];
  for (const [name, value] of Object.entries(attributes)) {
    const lower = name.toLowerCase();
    if (
      lower.startsWith("on") || lower === "srcdoc" || lower === "formaction" ||
      navigating.includes(lower) || (typeof value === "string" && isScriptUrl(value))
    ) {
      delete attributes[name];
    }
  }
}
