// Writes an rrweb full snapshot's node tree as an HTML document, the way rrweb's rebuild builds it
// in its iframe, so the server can send the first frame before any script runs. The snapshot must
// have been cleaned by `RecordingSanitizer` first; this module only keeps the markup well formed
// (escaping, valid names, raw-text elements that cannot be closed early), drops what loads or
// runs by itself (preloaded scripts, nested frames' sources) and opens the document with the
// frame's policy (FRAME_PRELUDE).

import { NodeType } from "@rrweb/types";
import { REPLAY_FRAME_CSP } from "@/recording/sanitize.ts";

/**
 * A recorded node as it may arrive: rrweb's `serializedNodeWithId` (@rrweb/types) with every field
 * optional, since a recording is untrusted input and is written out whatever it holds.
 */
export interface SnapshotNode {
  type: number;
  name?: string;
  tagName?: string;
  attributes?: Record<string, unknown>;
  childNodes?: SnapshotNode[];
  textContent?: string;
  isSVG?: boolean;
  isShadow?: boolean;
  isShadowHost?: boolean;
}

const VOID = new Set(
  "area base br col embed hr img input link meta param source track wbr".split(" "),
);
/** Elements whose text the parser reads raw up to their end tag (in HTML content only). */
const RAW_TEXT = new Set(["style", "xmp", "noembed", "noframes"]);
/**
 * Below these the parser is in foreign content, where `<style>` is an ordinary element whose text
 * is markup (`</style><img>` under `<svg>` once became an element). Escaped text is safe in
 * both modes, so anything below them is escaped, even where an integration point (foreignObject)
 * would read it raw again: that costs at most a stray `&gt;` in a rare stylesheet.
 */
const FOREIGN = new Set(["svg", "math"]);
/**
 * Written without content: a recorded frame's document is not drawn (rrweb loads it apart), and
 * <noscript> would show its fallback in a frame that runs no scripts.
 */
const EMPTIED = new Set(["iframe", "noscript"]);
/** Never written: they run, or swallow the rest of the document, or have no text form. */
const DROPPED = new Set(["script", "plaintext"]);
const TAG_NAME = /^[a-z][a-z0-9._:-]*$/i;
// deno-lint-ignore no-control-regex
const ATTRIBUTE_NAME = /^[^\s"'>/=\u0000-\u001f\u007f]+$/;

/** A page repeats a few names on every element: each is judged once (of the first 4,096 seen). */
function judged(valid: RegExp) {
  const known = new Map<string, boolean>();
  return (name: string) => {
    let ok = known.get(name);
    if (ok === undefined) {
      ok = valid.test(name);
      if (known.size < 4096) known.set(name, ok);
    }
    return ok;
  };
}
const validTag = judged(TAG_NAME);
const validAttribute = judged(ATTRIBUTE_NAME);
const PRELOAD = /^(preload|modulepreload|prefetch)$/i;

// Most text and values hold nothing to escape: one test, and no copies then.
const TEXT_SPECIAL = /[&<>]/;
const ATTRIBUTE_SPECIAL = /[&"]/;

export function escapeText(text: string): string {
  if (!TEXT_SPECIAL.test(text)) return text;
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIAL.test(value)) return value;
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/**
 * Written ahead of the recorded markup: the frame's own policy (recorded look only, no documents)
 * and no referrer, in force before any element that could load something is parsed.
 */
export const FRAME_PRELUDE = `<meta http-equiv="Content-Security-Policy" content="${
  escapeAttribute(REPLAY_FRAME_CSP)
}"><meta name="referrer" content="no-referrer">`;

/** The document (a snapshot's root node) as HTML. */
export function snapshotHtml(root: SnapshotNode): string {
  const out: string[] = [];
  write(root, out, "", false);
  return out.join("");
}

function write(node: SnapshotNode, out: string[], parentTag: string, foreign: boolean) {
  switch (node.type) {
    case NodeType.Document: {
      const children = node.childNodes ?? [];
      let at = 0;
      // The doctype (and comments before it) stay first, or the frame would be in quirks mode.
      while (
        children[at]?.type === NodeType.DocumentType || children[at]?.type === NodeType.Comment
      ) {
        write(children[at++], out, "", false);
      }
      out.push(FRAME_PRELUDE);
      for (; at < children.length; at++) write(children[at], out, "", false);
      return;
    }
    case NodeType.DocumentType:
      if (TAG_NAME.test(node.name ?? "html")) out.push(`<!DOCTYPE ${node.name ?? "html"}>`);
      return;
    case NodeType.Text:
      return void out.push(rawText(parentTag, foreign, node.textContent ?? ""));
    case NodeType.Comment:
      // `--` or a leading `>` or `->` would end the comment early.
      return void out.push(`<!--${commentText(node.textContent ?? "")}-->`);
    case NodeType.Element:
      return element(node, out, foreign);
  }
}

function commentText(text: string): string {
  return text.replace(/--/g, "- -").replace(/^-?>/, " $&");
}

function rawText(parentTag: string, foreign: boolean, text: string): string {
  // A raw-text element ends at the first `</tag`; no other escaping applies inside it.
  if (RAW_TEXT.has(parentTag) && !foreign) return text.replace(/<\//g, "<\\/");
  return escapeText(text);
}

function element(node: SnapshotNode, out: string[], inForeign: boolean) {
  const attributes = node.attributes ?? {};
  let tag = (node.tagName ?? "").toLowerCase();
  if (!validTag(tag) || DROPPED.has(tag)) return;
  const foreign = inForeign || FOREIGN.has(tag);
  if (tag === "link" && PRELOAD.test(String(attributes.rel ?? ""))) return;
  const css = attributes._cssText;
  // rrweb inlines a stylesheet link's rules as `_cssText` and rebuilds it as a <style>.
  if (tag === "link" && typeof css === "string") tag = "style";
  const name = node.isSVG ? node.tagName! : tag;
  out.push(`<${name}${attributeText(tag, attributes)}>`);
  if (VOID.has(tag)) return;
  if (node.isShadowHost) {
    out.push('<template shadowrootmode="open">');
    for (const child of node.childNodes ?? []) if (child.isShadow) write(child, out, tag, foreign);
    out.push("</template>");
  }
  if (typeof css === "string" && tag === "style") out.push(rawText("style", foreign, css));
  else if (tag === "textarea" && typeof attributes.value === "string") {
    out.push(escapeText(attributes.value));
  } else if (!EMPTIED.has(tag)) {
    for (const child of node.childNodes ?? []) {
      if (!child.isShadow) write(child, out, tag, foreign);
    }
  }
  out.push(`</${name}>`);
}

/**
 * Attributes as rrweb's rebuild sets them: strings, `true` as empty, `rr_*` applied or dropped
 * (`_cssText` is the element's content). Written straight out unless an `rr_*` one is there.
 */
function attributeText(tag: string, attributes: Record<string, unknown>): string {
  let text = "";
  for (const name in attributes) {
    if (name.startsWith("rr_")) return attributeTextApplying(tag, attributes);
    const value = written(tag, name, attributes[name]);
    if (value !== null) text += ` ${name}="${escapeAttribute(value)}"`;
  }
  return text;
}

/** An attribute's value as written, or null when it is not. */
function written(tag: string, name: string, value: unknown): string | null {
  if (name === "_cssText" || !validAttribute(name)) return null;
  if (tag === "iframe" && (name === "src" || name === "srcdoc")) return null;
  if (tag === "textarea" && name === "value") return null;
  if (value === true) return "";
  return typeof value === "string" ? value : null;
}

/** As `attributeText`, with the `rr_*` attributes applied. */
function attributeTextApplying(tag: string, attributes: Record<string, unknown>): string {
  const special = Object.entries(attributes).filter(([name]) => name.startsWith("rr_"));
  const set = new Map<string, string>();
  for (const [name, recorded] of Object.entries(attributes)) {
    const value = name.startsWith("rr_") ? null : written(tag, name, recorded);
    if (value !== null) set.set(name, value);
  }
  const style: string[] = [];
  for (const [name, value] of special) {
    if (typeof value !== "string") continue;
    if (name === "rr_width") style.push(`width: ${value}`);
    if (name === "rr_height") style.push(`height: ${value}`);
    if (name === "rr_dataURL" && tag === "img") set.set("src", value);
    // A canvas's recorded pixels stay out: rrweb cannot paint them in its script-less frame
    // either, and the swap to the player's frame must not change what is seen.
  }
  if (style.length) set.set("style", [set.get("style"), ...style].filter(Boolean).join("; "));
  let text = "";
  for (const [name, value] of set) text += ` ${name}="${escapeAttribute(value)}"`;
  return text;
}
