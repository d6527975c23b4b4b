// A clicked node's selector in the page model, by the SDK's signal rules (sdk/signals/signals.ts:
// the nearest interactive element or the node itself, then up to 3 levels of tag, id or two classes
// and nth-of-type, ending at an id), so a heatmap's element and an insights row of rage or dead
// clicks name the same element. The SDK reads a live DOM; here the recorded tree stands in for it.
import { NodeType } from "@rrweb/types";
import type { DomModel, ModelNode } from "./dom_model.ts";

/** The service's bound on a selector (core/ingest/limits.ts SELECTOR_CHARS; recording/ imports no core). */
const SELECTOR_CHARS = 256;

/** sdk/signals/signals.ts INTERACTIVE, as tests on elements (the model has no `matches`). */
const INTERACTIVE_TAGS = new Set(["button", "select", "summary", "label"]);
const BUTTON_INPUTS = new Set(["button", "submit", "reset", "image"]);
const INTERACTIVE_ROLES = new Set(["button", "link", "tab", "menuitem"]);

const isElement = (node: ModelNode | undefined): node is ModelNode =>
  node?.type === NodeType.Element;

const attribute = (node: ModelNode, name: string): string | null => {
  const value = node.attributes?.[name];
  return typeof value === "string" ? value : value === true ? "" : null;
};

const tagOf = (node: ModelNode) => String(node.tagName ?? "").toLowerCase();

export function isInteractive(node: ModelNode): boolean {
  const tag = tagOf(node);
  if (INTERACTIVE_TAGS.has(tag)) return true;
  if (tag === "a" && attribute(node, "href") !== null) return true;
  if (tag === "input" && BUTTON_INPUTS.has((attribute(node, "type") ?? "").toLowerCase())) {
    return true;
  }
  const role = attribute(node, "role");
  if (role !== null && INTERACTIVE_ROLES.has(role)) return true;
  return attribute(node, "onclick") !== null;
}

/** The element a click on `id` counts for: its nearest interactive element, else itself. */
export function clickTarget(model: DomModel, id: number): ModelNode | null {
  let node = model.node(id);
  if (node && !isElement(node)) node = model.parentOf(node); // a text node: its element
  if (!isElement(node)) return null;
  for (let up: ModelNode | undefined = node; isElement(up); up = model.parentOf(up)) {
    if (isInteractive(up)) return up;
  }
  return node;
}

/** selectorOf of sdk/signals/signals.ts over the model. */
export function modelSelector(model: DomModel, element: ModelNode): string {
  const parts: string[] = [];
  let node: ModelNode | undefined = element;
  while (isElement(node) && parts.length < 3 && !isRootElement(model, node)) {
    const tag = tagOf(node);
    const id = attribute(node, "id");
    if (id) {
      parts.unshift(`${tag}#${cssEscape(id)}`);
      break;
    }
    let part = tag;
    const classes = classList(attribute(node, "class")).slice(0, 2);
    if (classes.length) part += classes.map((c) => `.${cssEscape(c)}`).join("");
    const parent = model.parentOf(node);
    if (isElement(parent)) {
      const same = (parent.childNodes ?? []).filter((c) => isElement(c) && tagOf(c) === tag);
      if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
    }
    parts.unshift(part);
    node = isElement(parent) ? parent : undefined;
  }
  const selector = parts.join(" > ");
  if (selector.length <= SELECTOR_CHARS) return selector;
  // core/ingest/limits.ts cutText's cut: a surrogate pair is never split.
  let end = SELECTOR_CHARS - 1;
  if (/[\uD800-\uDBFF]/.test(selector[end - 1])) end--;
  return selector.slice(0, end) + "…";
}

/** The document element: an element whose parent is the document. */
const isRootElement = (model: DomModel, node: ModelNode) =>
  model.parentOf(node)?.type === NodeType.Document;

/** DOMTokenList's tokens: split on ASCII whitespace, each once, in order. */
function classList(value: string | null): string[] {
  return [...new Set((value ?? "").split(/[\t\n\f\r ]+/).filter(Boolean))];
}

/** CSS.escape (CSSOM's "serialize an identifier"), which Deno has no `CSS` for. */
export function cssEscape(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const char = value.charAt(i);
    if (code === 0) out += "\uFFFD";
    else if (
      (code >= 0x1 && code <= 0x1f) || code === 0x7f ||
      (i === 0 && code >= 0x30 && code <= 0x39) ||
      (i === 1 && code >= 0x30 && code <= 0x39 && value.charCodeAt(0) === 0x2d)
    ) out += `\\${code.toString(16)} `;
    else if (i === 0 && value.length === 1 && code === 0x2d) out += `\\${char}`;
    else if (
      code >= 0x80 || code === 0x2d || code === 0x5f || (code >= 0x30 && code <= 0x39) ||
      (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
    ) out += char;
    else out += `\\${char}`;
  }
  return out;
}
