// The bounds, defaults and privacy rules of a project's network settings, shared by the API's
// schema, the database's checks (migration 0027), ingest and the capture SDK's network bundle,
// which imports this file, so it stays free of dependencies (docs/decisions.md "Network capture").

export const MAX_KEPT_HEADERS = 30;
export const MAX_HEADER_NAME_CHARS = 100;
/** A recorded body past this many characters is cut, with BODY_CUT_MARK after the cut. */
export const BODY_MAX_CHARS = 150 * 1024;
export const BODY_CUT_MARK = "\n[playhead: body cut at 150 KB]";
/** What a secret becomes, in a body's JSON, a form or a URL's query. */
export const REDACTED = "[redacted]";

export interface NetworkSettings {
  /** Each fetch and XMLHttpRequest is recorded (method, URL, status, timing, sizes). */
  enabled: boolean;
  /** Header names kept, lowercase; the never-kept names are dropped whatever this says. */
  headers: string[];
  /** Path globs of the requests whose text, JSON and form bodies are recorded. */
  bodyUrls: string[];
  /** LCP, CLS, INP, FCP and TTFB as `web_vital` markers (with `enabled`). */
  vitals: boolean;
}

export const DEFAULT_NETWORK: NetworkSettings = {
  enabled: false,
  headers: ["content-type", "content-length", "accept"],
  bodyUrls: [],
  vitals: true,
};

const NEVER_KEPT = new Set(["authorization", "cookie", "set-cookie", "x-service-public-key"]);
/**
 * Parts of a name that say credentials, wherever they stand in a header's, a query parameter's or
 * a JSON or form key's name (`x-jwt-assertion`, `dpop`, `oauth_state`, `SAMLResponse`).
 */
const CREDENTIAL_PARTS = "jwt|pass|pwd|cred|sign|dpop|bearer|cookie|ticket|saml|state";
const SECRET_PART = new RegExp(`token|secret|key|auth|session|${CREDENTIAL_PARTS}`, "i");

/** Whether a header may be kept at all: never credentials, whatever a project's list says. */
export function headerKeepable(name: string): boolean {
  const lower = name.toLowerCase();
  return !NEVER_KEPT.has(lower) && !SECRET_PART.test(lower);
}

/** JSON and form keys whose values are secrets (`password`, `api_key`, `cardNumber`, `cvv`, …). */
export const SECRET_KEY = new RegExp(
  "secret|token|auth|api[-_]?key|card|cvv|cvc|ssn|social[-_]?security|pin$|otp|" +
    CREDENTIAL_PARTS,
  "i",
);
/** Query parameters whose values are secrets in every recorded URL. */
export const SECRET_PARAM = new RegExp(
  `token|code|key|password|secret|auth|sig|session|${CREDENTIAL_PARTS}`,
  "i",
);

/** `text` cut to BODY_MAX_CHARS with BODY_CUT_MARK after the cut, never splitting a pair. */
export function cutBody(text: string): string {
  if (text.length <= BODY_MAX_CHARS) return text;
  let end = BODY_MAX_CHARS;
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return text.slice(0, end) + BODY_CUT_MARK;
}
