// The network bundle's privacy rules, applied in the browser before a request is queued
// (docs/decisions.md "Network capture"): headers only from the project's list and never
// credentials, secret query parameters replaced in every address, bodies only of text, JSON and
// forms, secret JSON and form values replaced, the page's input masking applied to bodies (every
// value; a request's text wholly, a response's text where it looks like an email, a code or a
// token), and every body cut at BODY_MAX_CHARS with a mark.
import {
  cutBody,
  headerKeepable,
  REDACTED,
  SECRET_KEY,
  SECRET_PARAM,
} from "@/core/projects/network_limits.ts";

export { cutBody };

export type Headers = Record<string, string>;

/** The headers whose names the project keeps and that may be kept at all, names lowercase. */
export function keepHeaders(headers: Headers | undefined, keep: readonly string[]): Headers {
  const kept: Headers = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (keep.includes(lower) && headerKeepable(lower)) kept[lower] = String(value);
  }
  return kept;
}

/** `name=value` pairs of a query or fragment with the values of secret names replaced. */
function redactPairs(text: string): string {
  return text.split("&").map((pair) => {
    const at = pair.indexOf("=");
    if (at < 0) return pair;
    let name = pair.slice(0, at);
    try {
      name = decodeURIComponent(name.replace(/\+/g, " "));
    } catch {
      // an undecodable name is tested as written
    }
    return SECRET_PARAM.test(name) ? `${pair.slice(0, at)}=${REDACTED}` : pair;
  }).join("&");
}

/** The address with the values of secret query (and fragment) parameters and any password replaced. */
export function redactUrl(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return address.replace(/\?.*$/s, (query) => "?" + redactPairs(query.slice(1)));
  }
  url.username = "";
  url.password = "";
  const base = url.origin + url.pathname;
  const query = url.search ? "?" + redactPairs(url.search.slice(1)) : "";
  const hash = url.hash ? "#" + redactPairs(url.hash.slice(1)) : "";
  return base + query + hash;
}

export type BodyKind = "json" | "form" | "text";

/** What a content type's body is for recording; null for anything else (binary, multipart). */
export function bodyKind(contentType: string | undefined): BodyKind | null {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type.startsWith("text/") || type === "application/xml" || type.endsWith("+xml")) {
    return "text";
  }
  return null;
}

const mask = (text: string) => "*".repeat(text.length);

/**
 * How a body is masked: `none` (input masking off: secrets only), or, with it on, every JSON and
 * form value, and a text body wholly (`request`: what the visitor sent) or where it looks like an
 * email, a code or a card number, or a token (`response`: the page's content).
 */
export type BodyMask = "none" | "request" | "response";

/** What a masked JSON scalar becomes: asterisks as long as it was written; a boolean, five. */
function maskScalar(value: string | number | boolean): string {
  return typeof value === "boolean" ? "*****" : mask(String(value));
}

/** A JSON value with secret keys' values replaced, and (`maskValues`) every other scalar masked. */
function redactJson(value: unknown, maskValues: boolean): unknown {
  if (value === null) return null; // nothing was typed
  if (typeof value !== "object") {
    return maskValues ? maskScalar(value as string | number | boolean) : value;
  }
  if (Array.isArray(value)) return value.map((item) => redactJson(item, maskValues));
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redactJson(child, maskValues);
  }
  return out;
}

/** A form's pairs with secret names' values replaced, and (`maskValues`) the others masked. */
function redactForm(text: string, maskValues: boolean): string {
  const params = new URLSearchParams(text);
  const out = new URLSearchParams();
  params.forEach((value, name) => {
    out.append(name, SECRET_KEY.test(name) ? REDACTED : maskValues ? mask(value) : value);
  });
  return out.toString();
}

/** Runs of characters that may make one email or token; each run is tested once, whole. */
const WORD = /[^\s"'`<>()[\]{},;:=&?#/\\|]+/g;
const EMAIL = /^[\w.+%-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\.?$/i;
/** A JWT's or JWS's dot-separated base64url parts (its header starts `{"`: `eyJ`). */
const JWT = /^eyJ[\w-]+\.[\w-]+(?:\.[\w-]*)?$/;
/** Six digits or more, single spaces or dashes between them: codes, card and account numbers. */
const DIGITS = /\d(?:[ -]?\d){5,}/g;

/** A text with its emails, long digit runs and JWT-like tokens masked, the rest as it was. */
export function redactPatterns(text: string): string {
  return text.replace(WORD, (word) => EMAIL.test(word) || JWT.test(word) ? mask(word) : word)
    .replace(DIGITS, mask);
}

/**
 * A body as recorded: secrets replaced by kind, masked as `masking` says, cut. Text that parses
 * as JSON is JSON, and JSON that does not is text.
 */
export function redactBody(text: string, kind: BodyKind, masking: BodyMask): string {
  const maskValues = masking !== "none";
  // A string sent without a content type goes as text/plain: JSON is still JSON.
  if (kind === "json" || /^\s*[[{]/.test(text)) {
    try {
      return cutBody(JSON.stringify(redactJson(JSON.parse(text), maskValues)));
    } catch {
      // not JSON after all: as text
    }
  }
  if (kind === "form") return cutBody(redactForm(text, maskValues));
  return cutBody(
    masking === "request" ? mask(text) : masking === "response" ? redactPatterns(text) : text,
  );
}
