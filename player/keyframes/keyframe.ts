// A keyframe: a copy of the replayed document at one moment that can be put back into a Replayer
// far faster than rrweb rebuilds a full snapshot — a deep clone of the DOM (cloning is native),
// each node's rrweb id and serialised form (so later events find their nodes), scroll offsets and
// canvas pixels (neither is part of a clone), the viewport size and the last event applied.
import type { Replayer } from "rrweb";
import type { RecordedEvent } from "@/recording/decode.ts";
import { patchDocumentElement } from "@/player/dom/dom_patch.ts";
import type { HeldScrolls } from "@/player/dom/held_scrolls.ts";
import {
  announceSize,
  insertOwnStyles,
  lastPlayedEvent,
  markPlayed,
  type NodeMeta,
  type ReplayMirror,
} from "@/player/dom/replayer_internals.ts";

export interface Keyframe {
  /** Timestamp of the last event applied (epoch ms). */
  timestamp: number;
  /** Timestamp of the Meta the replay was built from (its page's first event). */
  base: number;
  lastEvent: RecordedEvent;
  root: Element;
  /** Per node of `root` in tree order; null for what rrweb added itself. */
  metas: (NodeMeta | null)[];
  documentMeta: NodeMeta;
  doctypeMeta: NodeMeta | null;
  /** Tree-order index of a scrolled element, its top and left. */
  scrolls: [number, number, number][];
  canvases: [number, HTMLCanvasElement][];
  size: { width: number; height: number };
}

function* treeOrder(root: Node): Generator<Node> {
  const walker = root.ownerDocument!.createTreeWalker(root, NodeFilter.SHOW_ALL);
  for (let node: Node | null = root; node; node = walker.nextNode()) yield node;
}

/**
 * The replayed document of `replayer` as a keyframe, or null where a clone cannot carry it:
 * nested documents (iframes rrweb filled) and shadow roots are not cloned.
 */
export function captureKeyframe(replayer: Replayer, base: number): Keyframe | null {
  const doc = replayer.iframe.contentDocument;
  const lastEvent = lastPlayedEvent(replayer);
  const mirror = replayer.getMirror();
  const documentMeta = doc && mirror.getMeta(doc);
  if (!doc?.documentElement || !lastEvent || !documentMeta) return null;
  const metas: (NodeMeta | null)[] = [];
  const scrolls: [number, number, number][] = [];
  const canvases: [number, HTMLCanvasElement][] = [];
  let index = 0;
  for (const node of treeOrder(doc.documentElement)) {
    metas.push(mirror.getMeta(node));
    if (node.nodeType === Node.ELEMENT_NODE) {
      const element = node as Element;
      if (element.shadowRoot) return null;
      if (element.localName === "iframe" && hasBuiltDocument(element, mirror)) return null;
      if (element.scrollTop || element.scrollLeft) {
        scrolls.push([index, element.scrollTop, element.scrollLeft]);
      }
      if (element.localName === "canvas") canvases.push([index, copyCanvas(element)]);
    }
    index++;
  }
  return {
    timestamp: lastEvent.timestamp,
    base,
    lastEvent,
    root: doc.documentElement.cloneNode(true) as Element,
    metas,
    documentMeta,
    doctypeMeta: doc.doctype && mirror.getMeta(doc.doctype),
    scrolls,
    canvases,
    size: {
      width: Number(replayer.iframe.getAttribute("width")),
      height: Number(replayer.iframe.getAttribute("height")),
    },
  };
}

function hasBuiltDocument(iframe: Element, mirror: ReplayMirror): boolean {
  const inner = (iframe as HTMLIFrameElement).contentDocument;
  return !!inner && mirror.hasNode(inner);
}

function copyCanvas(canvas: Element): HTMLCanvasElement {
  const source = canvas as HTMLCanvasElement;
  const copy = document.createElement("canvas");
  copy.width = source.width;
  copy.height = source.height;
  if (source.width && source.height) copy.getContext("2d")?.drawImage(source, 0, 0);
  return copy;
}

/**
 * Puts `keyframe` into `replayer`'s document; rrweb then plays on from its last event. Its scroll
 * offsets go to `scrolls`, applied once the seek's fast-forward is done.
 */
export function restoreKeyframe(replayer: Replayer, keyframe: Keyframe, scrolls: HeldScrolls) {
  const doc = replayer.iframe.contentDocument!;
  const mirror = replayer.getMirror();
  // What the patch keeps keeps its scroll offset too: back to the keyframe's (0 unless listed).
  scrolls.resetAll(doc);
  const root = patchDocumentElement(doc, keyframe.root);
  mirror.reset();
  mirror.add(doc, keyframe.documentMeta);
  if (doc.doctype && keyframe.doctypeMeta) mirror.add(doc.doctype, keyframe.doctypeMeta);
  // The same tree order as the capture's, keeping only the elements needed below.
  const wanted = new Set([...keyframe.canvases, ...keyframe.scrolls].map(([at]) => at));
  const elements = new Map<number, Element>();
  let index = 0;
  for (const node of treeOrder(root)) {
    const meta = keyframe.metas[index];
    if (meta) mirror.add(node, meta);
    if (wanted.has(index)) elements.set(index, node as Element);
    index++;
  }
  restoreOwnStyles(replayer, root);
  for (const [at, canvas] of keyframe.canvases) {
    const target = elements.get(at) as HTMLCanvasElement | undefined;
    const context = target?.getContext("2d");
    if (!target || !context) continue;
    context.clearRect(0, 0, target.width, target.height);
    if (canvas.width && canvas.height) context.drawImage(canvas, 0, 0);
  }
  for (const [at, top, left] of keyframe.scrolls) {
    const target = elements.get(at);
    if (target) scrolls.hold(target, top, left);
  }
  announceSize(replayer, keyframe.size);
  markPlayed(replayer, keyframe.lastEvent);
}

/**
 * rrweb's own style element (`html > style`, not in the mirror) keeps its rules in the CSSOM,
 * which a clone leaves behind: one the patch kept still has them; an empty copy is put back.
 */
function restoreOwnStyles(replayer: Replayer, root: Element) {
  const mirror = replayer.getMirror();
  let emptied = false;
  for (const style of root.querySelectorAll<HTMLStyleElement>(":scope > style")) {
    if (mirror.hasNode(style) || style.sheet?.cssRules.length) continue;
    style.remove();
    emptied = true;
  }
  const head = root.querySelector(":scope > head");
  if (emptied && head) insertOwnStyles(replayer, root, head);
}
