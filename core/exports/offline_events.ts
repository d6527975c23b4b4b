// An exported replay plays with no network (docs/decisions.md "Exports"): every address in the
// recording that a browser would fetch is emptied before the events are written into the file —
// URL attributes of recorded elements (in snapshots and mutations) unless `data:` or a `#`
// fragment, and CSS `url(…)` and `@import` anywhere (style attributes, inlined stylesheets, rule
// insertions). What was not inlined at recording time shows blank instead of being fetched.
import type { RecordedEvent } from "@/player/decode/decode.ts";

/** Attributes whose value a browser loads (or may: `href` of a link or an SVG `<use>`). */
const URL_ATTRIBUTES = new Set([
  "src",
  "srcset",
  "href",
  "xlink:href",
  "poster",
  "background",
  "data",
  "action",
  "formaction",
  "ping",
  "imagesrcset",
  "manifest",
]);

const LOCAL = /^\s*(data:|#)/i;
const CSS_URL = /url\(\s*(['"]?)(?!\s*data:|\s*#)[^)]*?\1\s*\)/gi;
const CSS_IMPORT = /@import\s+[^;]+;?/gi;

/** CSS with every remote `url(…)` made one that loads nothing, and no `@import`. */
export function offlineCss(css: string): string {
  if (!css.includes("url(") && !/@import/i.test(css)) return css;
  return css.replace(CSS_IMPORT, "").replace(CSS_URL, "url(about:invalid)");
}

/**
 * `name`: the attribute this value is the value of; `"attributes"` for the object that maps
 * attribute names to values (a node's, or a mutation's), null elsewhere.
 */
function clean(value: unknown, name: string | null): unknown {
  if (typeof value === "string") {
    if (name && URL_ATTRIBUTES.has(name.toLowerCase()) && !LOCAL.test(value)) return "";
    return offlineCss(value);
  }
  if (Array.isArray(value)) return value.map((item) => clean(item, null));
  if (value === null || typeof value !== "object") return value;
  const map = name === "attributes";
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = clean(item, map ? key : key === "attributes" ? "attributes" : null);
  }
  return out;
}

/** The event with nothing left in it that a browser would fetch. */
export function offlineEvent(event: RecordedEvent): RecordedEvent {
  return { ...event, data: clean(event.data, null) };
}
