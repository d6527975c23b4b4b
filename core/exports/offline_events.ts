// The addresses in a recording that a browser would fetch, rewritten by a rule of which to keep
// (docs/decisions.md "Exports", "Shares"): URL attributes of recorded elements (in snapshots and
// mutations; every candidate of a `srcset`), and CSS `url(…)`, `image-set()` strings and `@import`
// anywhere (style attributes, inlined stylesheets, rule insertions). An exported replay plays with
// no network: it keeps only `data:` and `#` fragments, so what was not inlined at recording time
// shows blank instead of being fetched. A public link drops the relative ones (core/shares/).
import type { RecordedEvent } from "@/player/decode/decode.ts";

/** Whether an address (as written, untrimmed) stays; one that does not is emptied. */
export type KeepAddress = (address: string) => boolean;

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
function imageSets(css: string, keep: KeepAddress): string {
  let out = "", at = 0;
  for (const match of css.matchAll(IMAGE_SET)) {
    const from = match.index + match[0].length;
    if (from < at) continue; // nested in the previous one
    const end = closing(css, from);
    // A candidate's string opens the body or follows a comma (`type("image/avif")` does neither).
    const body = css.slice(from, end).replace(
      /(^|,)(\s*)(['"])(.*?)\3/g,
      (whole, lead, space, quote, address) =>
        keep(address) ? whole : `${lead}${space}${quote}${NOWHERE}${quote}`,
    );
    out += css.slice(at, from) + body;
    at = end;
  }
  return out + css.slice(at);
}

/** CSS with every `url(…)`, `image-set()` string and `@import` not kept made one that loads nothing. */
export function cssAddresses(css: string, keep: KeepAddress): string {
  if (!css.includes("url(") && !/@import|image-set\(/i.test(css)) return css;
  const imported = css.replace(
    CSS_IMPORT,
    (whole, _q, url, _q2, text) => keep(url ?? text) ? whole : "",
  );
  const urls = imported.replace(
    CSS_URL,
    (whole, _quote, url) => keep(url) ? whole : `url(${NOWHERE})`,
  );
  return imageSets(urls, keep);
}

/** CSS with every remote address made one that loads nothing, and no remote `@import`. */
export const offlineCss = (css: string) => cssAddresses(css, isLocal);

/** The addresses of a `srcset`: each candidate's first run of non-space characters. */
export function srcsetAddresses(value: string): string[] {
  const addresses: string[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && /[\s,]/.test(value[i])) i++;
    if (i >= value.length) break;
    const from = i;
    while (i < value.length && !/\s/.test(value[i])) i++;
    const address = value.slice(from, i);
    addresses.push(address.replace(/,+$/, ""));
    if (address.endsWith(",")) continue;
    // Descriptors run to the next comma outside parentheses.
    for (let depth = 0; i < value.length; i++) {
      if (value[i] === "(") depth++;
      else if (value[i] === ")") depth--;
      else if (value[i] === "," && depth <= 0) break;
    }
  }
  return addresses;
}

/**
 * `name`: the attribute this value is the value of; `"attributes"` for the object that maps
 * attribute names to values (a node's, or a mutation's), null elsewhere.
 */
function clean(value: unknown, name: string | null, keep: KeepAddress): unknown {
  if (typeof value === "string") {
    const lower = name?.toLowerCase() ?? "";
    if (URL_ATTRIBUTES.has(lower)) return keep(value) ? value : "";
    if (SRCSET_ATTRIBUTES.has(lower)) return srcsetAddresses(value).every(keep) ? value : "";
    return cssAddresses(value, keep);
  }
  if (Array.isArray(value)) return value.map((item) => clean(item, null, keep));
  if (value === null || typeof value !== "object") return value;
  const map = name === "attributes";
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = clean(item, map ? key : key === "attributes" ? "attributes" : null, keep);
  }
  return out;
}

/** The event with every address a browser would fetch that `keep` refuses emptied. */
export function eventAddresses(event: RecordedEvent, keep: KeepAddress): RecordedEvent {
  return { ...event, data: clean(event.data, null, keep) };
}

/** The event with nothing left in it that a browser would fetch. */
export const offlineEvent = (event: RecordedEvent) => eventAddresses(event, isLocal);
