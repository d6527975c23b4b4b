// The addresses in a recording that a browser would fetch, rewritten by a rule of which to keep
// (docs/decisions.md "Exports", "Shares"): URL attributes of recorded elements (in snapshots and
// mutations; every candidate of a `srcset`), and CSS `url(…)`, `image-set()` strings and `@import`
// anywhere (style attributes, inlined stylesheets, rule insertions). An exported replay plays with
// no network: it keeps only `data:` and `#` fragments, and writes the images the server fetched
// (core/exports/inline_images.ts) as data URLs in their places; what is left shows blank instead
// of being fetched. A public link drops the relative ones (core/shares/).
import type { RecordedEvent } from "@/recording/decode.ts";

/** Whether an address (as written, untrimmed) stays; one that does not is emptied. */
export type KeepAddress = (address: string) => boolean;
/**
 * What stands for an image's address that is not kept (an `<img>`'s `src`, a `poster`, the
 * candidate a `srcset` picks, a CSS `url()` or `image-set()` string outside `@font-face`): a data
 * URL, or null to empty it as any other.
 */
export type ImageAddress = (address: string) => string | null;

/** Attributes whose value a browser loads (or may: `href` of a link or an SVG `<use>`). */
const URL_ATTRIBUTES = new Set([
  "src",
  "href",
  "xlink:href",
  "poster",
  "background",
  "data",
  "action",
  "formaction",
  "ping",
  "manifest",
]);
/** Attributes holding a list of image candidates, each an address and its descriptors. */
const SRCSET_ATTRIBUTES = new Set(["srcset", "imagesrcset"]);

const LOCAL = /^\s*(data:|#)/i;
/** An exported replay keeps only what is in the file itself. */
export const isLocal: KeepAddress = (address) => LOCAL.test(address);

/** What stands for an address taken out: a valid one that loads nothing. */
const NOWHERE = "about:invalid";

const CSS_URL = /url\(\s*(['"]?)([^)]*?)\1\s*\)/gi;
const CSS_IMPORT = /@import\s+(?:url\(\s*(['"]?)([^)]*?)\1\s*\)|(['"])(.*?)\3)[^;]*;?/gi;
const IMAGE_SET = /(?:-webkit-)?image-set\(/gi;
/** A font's sources are no image: they are emptied, never inlined. */
const FONT_FACE = /@font-face\s*\{[^}]*\}?/gi;

/** The `image-set(` body starting at `from`: its end (the closing parenthesis's index). */
function closing(css: string, from: number): number {
  let depth = 1;
  for (let i = from; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") {
      const end = css.indexOf(c, i + 1);
      if (end < 0) return css.length;
      i = end;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return css.length;
}

/** `image-set()`'s candidates written as strings (not `url()`): those not kept point nowhere. */
function imageSets(css: string, keep: KeepAddress, image: ImageAddress | null): string {
  let out = "", at = 0;
  for (const match of css.matchAll(IMAGE_SET)) {
    const from = match.index + match[0].length;
    if (from < at) continue; // nested in the previous one
    const end = closing(css, from);
    // A candidate's string opens the body or follows a comma (`type("image/avif")` does neither).
    const body = css.slice(from, end).replace(
      /(^|,)(\s*)(['"])(.*?)\3/g,
      (whole, lead, space, quote, address) =>
        keep(address) ? whole : `${lead}${space}${quote}${image?.(address) ?? NOWHERE}${quote}`,
    );
    out += css.slice(at, from) + body;
    at = end;
  }
  return out + css.slice(at);
}

function rewriteCss(css: string, keep: KeepAddress, image: ImageAddress | null): string {
  const imported = css.replace(
    CSS_IMPORT,
    (whole, _q, url, _q2, text) => keep(url ?? text) ? whole : "",
  );
  const urls = imported.replace(CSS_URL, (whole, _quote, url) => {
    if (keep(url)) return whole;
    const inlined = image?.(url);
    return inlined ? `url("${inlined}")` : `url(${NOWHERE})`;
  });
  return imageSets(urls, keep, image);
}

/**
 * CSS with every `url(…)`, `image-set()` string and `@import` not kept made one that loads nothing
 * (an image's written as `image` gives it, when it does).
 */
export function cssAddresses(
  css: string,
  keep: KeepAddress,
  image: ImageAddress | null = null,
): string {
  if (!css.includes("url(") && !/@import|image-set\(/i.test(css)) return css;
  if (!image) return rewriteCss(css, keep, null);
  let out = "", at = 0;
  for (const font of css.matchAll(FONT_FACE)) {
    out += rewriteCss(css.slice(at, font.index), keep, image) + rewriteCss(font[0], keep, null);
    at = font.index + font[0].length;
  }
  return out + rewriteCss(css.slice(at), keep, image);
}

/** CSS with every remote address made one that loads nothing, and no remote `@import`. */
export const offlineCss = (css: string) => cssAddresses(css, isLocal);

/** A `srcset` candidate: its address and its descriptor as written ("" for none, 1x). */
export interface SrcsetCandidate {
  address: string;
  descriptor: string;
}

/** The candidates of a `srcset`: each one's first run of non-space characters, then its descriptors. */
export function srcsetCandidates(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && /[\s,]/.test(value[i])) i++;
    if (i >= value.length) break;
    const from = i;
    while (i < value.length && !/\s/.test(value[i])) i++;
    const address = value.slice(from, i);
    const candidate = { address: address.replace(/,+$/, ""), descriptor: "" };
    candidates.push(candidate);
    if (address.endsWith(",")) continue;
    // Descriptors run to the next comma outside parentheses.
    const start = i;
    for (let depth = 0; i < value.length; i++) {
      if (value[i] === "(") depth++;
      else if (value[i] === ")") depth--;
      else if (value[i] === "," && depth <= 0) break;
    }
    candidate.descriptor = value.slice(start, i).trim();
  }
  return candidates;
}

/** The addresses of a `srcset`. */
export const srcsetAddresses = (value: string) => srcsetCandidates(value).map((c) => c.address);

/**
 * The one candidate an export inlines: the largest not over 2x (a width over 1600w), else the
 * smallest; the replay is at most as wide as the recorded window, so more is bytes for nothing.
 */
export function pickCandidate(candidates: SrcsetCandidate[]): SrcsetCandidate | null {
  const size = ({ descriptor }: SrcsetCandidate) => {
    const match = descriptor.match(/^([\d.]+)([xw])$/i);
    if (!match) return 1;
    const n = Number(match[1]);
    return match[2].toLowerCase() === "w" ? n / 800 : n;
  };
  const sorted = [...candidates].sort((a, b) => size(a) - size(b));
  return sorted.findLast((c) => size(c) <= 2) ?? sorted[0] ?? null;
}

/**
 * Rewrites the addresses of a recording's events, one after another in replay order: an attribute
 * change names its element by id only, so which ids are `<img>` elements is remembered from the
 * nodes seen (each full snapshot and added node says again).
 */
export class AddressRewriter {
  #images = new Set<number>();

  constructor(readonly keep: KeepAddress, readonly image: ImageAddress | null = null) {}

  /** The event with every address a browser would fetch that `keep` refuses emptied or inlined. */
  event(event: RecordedEvent): RecordedEvent {
    return { ...event, data: this.#clean(event.data, null, null) };
  }

  #attribute(value: string, name: string, tag: string | null): string {
    const { keep, image } = this;
    if (URL_ATTRIBUTES.has(name)) {
      if (keep(value)) return value;
      const isImage = (name === "src" && tag === "img") || name === "poster";
      return (isImage && image?.(value)) || "";
    }
    const candidates = srcsetCandidates(value);
    if (candidates.every((c) => keep(c.address))) return value;
    const picked = name === "srcset" && image ? pickCandidate(candidates) : null;
    const inlined = picked && (keep(picked.address) ? picked.address : image!(picked.address));
    return inlined ? `${inlined} ${picked.descriptor}`.trim() : "";
  }

  /**
   * `name`: the attribute this value is the value of; `"attributes"` for the object that maps
   * attribute names to values (a node's, or a mutation's), null elsewhere. `tag`: the element's
   * whose attributes these are, when known.
   */
  #clean(value: unknown, name: string | null, tag: string | null): unknown {
    if (typeof value === "string") {
      const lower = name?.toLowerCase() ?? "";
      if (URL_ATTRIBUTES.has(lower) || SRCSET_ATTRIBUTES.has(lower)) {
        return this.#attribute(value, lower, tag);
      }
      return cssAddresses(value, this.keep, this.image);
    }
    if (Array.isArray(value)) return value.map((item) => this.#clean(item, null, null));
    if (value === null || typeof value !== "object") return value;
    const record = value as Record<string, unknown>;
    const map = name === "attributes";
    const element = map ? null : this.#element(record);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) {
      out[key] = map
        ? this.#clean(item, key, tag)
        : this.#clean(item, key === "attributes" ? "attributes" : null, element);
    }
    return out;
  }

  /** The tag of the element an object with attributes is (a node) or changes (a mutation). */
  #element(record: Record<string, unknown>): string | null {
    if (!("attributes" in record)) return null;
    const id = typeof record.id === "number" ? record.id : null;
    if (typeof record.tagName === "string") {
      const tag = record.tagName.toLowerCase();
      if (id !== null) tag === "img" ? this.#images.add(id) : this.#images.delete(id);
      return tag;
    }
    return id !== null && this.#images.has(id) ? "img" : null;
  }
}

/** The event with every address a browser would fetch that `keep` refuses emptied. */
export function eventAddresses(event: RecordedEvent, keep: KeepAddress): RecordedEvent {
  return new AddressRewriter(keep).event(event);
}

/** The event with nothing left in it that a browser would fetch. */
export const offlineEvent = (event: RecordedEvent) => eventAddresses(event, isLocal);
