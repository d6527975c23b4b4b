// Frustration signals, detected in the page and sent as custom events:
// - `service:rage_click`: 3 or more clicks, each within 1 s of the previous and within 30 px of the
//   first; one event per burst, when it ends, with the click count;
// - `service:dead_click`: a click on an interactive element after which nothing happens for 3 s
//   (no DOM mutation, scroll, navigation, input or selection change, and no uncaught error before a
//   click elsewhere: a click whose handler throws is an error, which the console plugin records as
//   one, not dead).
// Each carries `{ selector, text, x, y, at, clicks? }`, the text read under the same privacy rules
// as the recording: masked text is asterisks, an input gives no value, a blocked element no text.
// `at` is when it happened (epoch ms): the burst's first click, the dead click itself; the event is
// sent when the signal is known, and ingest dates the marker at `at`. A dead click also says why
// its watch ended and how long it waited (`ended`, `waitMs`).

import { cutText, SELECTOR_CHARS } from "@/core/ingest/limits.ts";
import { MEDIA_SELECTOR } from "@/sdk/capture/privacy.ts";
import type { ResolvedOptions } from "@/sdk/types.ts";

export const RAGE_CLICKS = 3;
export const RAGE_INTERVAL_MS = 1000;
export const RAGE_RADIUS_PX = 30;
export const DEAD_CLICK_MS = 3000;
export const TEXT_CHARS = 60;

export const INTERACTIVE = "a[href], button, input[type=button], input[type=submit], " +
  "input[type=reset], input[type=image], select, summary, label, [role=button], [role=link], " +
  "[role=tab], [role=menuitem], [onclick]";

const EDITABLE = '[contenteditable]:not([contenteditable="false"])';

export interface SignalPayload {
  selector: string;
  text: string;
  x: number;
  y: number;
  /** When the signal happened (epoch ms); the event itself is stamped when it is known. */
  at: number;
  clicks?: number;
  ended?: "timeout";
  waitMs?: number;
}

export type SignalEmit = (tag: string, payload: SignalPayload) => void;

interface Burst {
  x: number;
  y: number;
  /** The first click's epoch ms. */
  first: number;
  at: number;
  count: number;
  target: Element;
}

/** Watches clicks until the returned function is called. */
export function watchSignals(options: ResolvedOptions, emit: SignalEmit): () => void {
  const privacy = privacyOf(options);
  let burst: Burst | null = null;
  let burstTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The click waiting to be proven dead, and what proves it alive; `element` and whether a click
   * landed outside it since (an error after that is the other click's, not this one's).
   */
  let pending: {
    payload: SignalPayload;
    timer: ReturnType<typeof setTimeout>;
    element: Element;
    elsewhere: boolean;
  } | null = null;
  let observer: MutationObserver | null = null;

  const endBurst = () => {
    clearTimeout(burstTimer);
    if (burst && burst.count >= RAGE_CLICKS) {
      emit("service:rage_click", {
        ...describe(burst.target, privacy),
        x: burst.x,
        y: burst.y,
        at: burst.first,
        clicks: burst.count,
      });
    }
    burst = null;
  };

  const alive = () => {
    if (!pending) return;
    clearTimeout(pending.timer);
    pending = null;
    stopWatching();
  };
  const failed = () => {
    if (!pending?.elsewhere) alive();
  };
  const stopWatching = () => {
    observer?.disconnect();
    observer = null;
    for (const type of ACTIVITY) removeEventListener(type, alive, true);
    for (const type of FAILURES) removeEventListener(type, failed);
    document.removeEventListener("selectionchange", alive, true);
  };

  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const x = Math.round(event.clientX), y = Math.round(event.clientY);
    const now = event.timeStamp;
    const epoch = Date.now();
    if (
      burst && now - burst.at <= RAGE_INTERVAL_MS &&
      Math.hypot(x - burst.x, y - burst.y) <= RAGE_RADIUS_PX
    ) {
      burst.count++;
      burst.at = now;
    } else {
      endBurst();
      burst = {
        x,
        y,
        first: epoch,
        at: now,
        count: 1,
        target: target.closest(INTERACTIVE) ?? target,
      };
    }
    clearTimeout(burstTimer);
    // One ms past the interval: a click exactly RAGE_INTERVAL_MS after this one still joins.
    burstTimer = setTimeout(endBurst, RAGE_INTERVAL_MS + 1);

    // One dead-click watch at a time: clicks while one waits are part of the same nothing.
    if (pending && !pending.element.contains(target)) pending.elsewhere = true;
    const interactive = pending ? null : target.closest(INTERACTIVE);
    if (!interactive) return;
    const payload: SignalPayload = { ...describe(interactive, privacy), x, y, at: epoch };
    observer = new MutationObserver(alive);
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    for (const type of ACTIVITY) addEventListener(type, alive, true);
    for (const type of FAILURES) addEventListener(type, failed);
    document.addEventListener("selectionchange", alive, true);
    pending = {
      payload,
      element: interactive,
      elsewhere: false,
      timer: setTimeout(() => {
        const dead = pending?.payload;
        pending = null;
        stopWatching();
        if (dead) emit("service:dead_click", { ...dead, ended: "timeout", waitMs: DEAD_CLICK_MS });
      }, DEAD_CLICK_MS),
    };
  };

  addEventListener("click", onClick, { capture: true, passive: true });
  return () => {
    removeEventListener("click", onClick, true);
    endBurst();
    if (pending) clearTimeout(pending.timer);
    pending = null;
    stopWatching();
  };
}

/** What proves a click did something, besides DOM mutations and selection changes. */
const ACTIVITY = ["scroll", "input", "change", "popstate", "hashchange", "pagehide"] as const;
/**
 * What makes a click an error instead: an uncaught exception or rejection, before any click outside
 * its element. Heard without capture, so only a script's error reaches the window (an image's or a
 * script file's does not bubble).
 */
const FAILURES = ["error", "unhandledrejection"] as const;

interface Privacy {
  mask: string;
  block: string;
  maskInputs: boolean;
}

function privacyOf(options: ResolvedOptions): Privacy {
  const block = [`[${options.privacyBlockAttribute}]`];
  if (options.privacyBlockMedia) block.push(MEDIA_SELECTOR);
  const mask = [`[${options.privacyMaskAttribute}]`];
  if (options.privacyMaskInputs) mask.push(EDITABLE);
  return { mask: mask.join(", "), block: block.join(", "), maskInputs: options.privacyMaskInputs };
}

/** The element's selector and visible text, after the privacy rules. */
export function describe(element: Element, privacy: Privacy): { selector: string; text: string } {
  return { selector: selectorOf(element), text: textOf(element, privacy) };
}

/**
 * A short CSS selector: up to 3 levels of tag, id or classes and nth-of-type, ending at an id; cut
 * to the service's bound (a long generated id or class would be cut there anyway).
 */
export function selectorOf(element: Element): string {
  const parts: string[] = [];
  let node: Element | null = element;
  while (node && parts.length < 3 && node !== document.documentElement) {
    const tag = node.localName;
    if (node.id) {
      parts.unshift(`${tag}#${CSS.escape(node.id)}`);
      break;
    }
    let part = tag;
    const classes = Array.from(node.classList).slice(0, 2);
    if (classes.length) part += classes.map((c) => `.${CSS.escape(c)}`).join("");
    const parent: Element | null = node.parentElement;
    if (parent) {
      const same = Array.from(parent.children).filter((c) => c.localName === tag);
      if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
    }
    parts.unshift(part);
    node = parent;
  }
  return cutText(parts.join(" > "), SELECTOR_CHARS);
}

/**
 * Up to TEXT_CHARS of the element's text, whitespace collapsed: none inside a blocked element or
 * from inputs, asterisks for masked text (as rrweb masks it), never script or style contents.
 */
export function textOf(element: Element, privacy: Privacy): string {
  if (element.closest(privacy.block)) return "";
  if (element.matches("input, textarea, select")) return "";
  const maskedAll = element.closest(privacy.mask) !== null;
  let text = "";
  const walker = document.createTreeWalker(
    element,
    NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT,
    {
      acceptNode: (node) => {
        if (node.nodeType === Node.TEXT_NODE) return NodeFilter.FILTER_ACCEPT;
        const el = node as Element;
        if (el.matches(`script, style, template, textarea, select, ${privacy.block}`)) {
          return NodeFilter.FILTER_REJECT;
        }
        return NodeFilter.FILTER_SKIP;
      },
    },
  );
  for (let node = walker.nextNode(); node && text.length < TEXT_CHARS; node = walker.nextNode()) {
    let value = node.nodeValue ?? "";
    if (!value.trim()) {
      if (text && !text.endsWith(" ")) text += " ";
      continue;
    }
    if (maskedAll || node.parentElement?.closest(privacy.mask)) value = value.replace(/\S/g, "*");
    text += value.replace(/\s+/g, " ");
  }
  return Array.from(text.trim()).slice(0, TEXT_CHARS).join("");
}
