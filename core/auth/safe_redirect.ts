// Where a sign-in may send the browser afterwards: only a same-origin relative path ("/x"), never
// "//host", "/\host", an absolute URL or anything with control characters; otherwise "/".
const BASE = "http://playhead.invalid";

// Browsers read "\" as "/" and drop tabs and newlines, which would turn "/\host" into "//host".
const unsafeChar = (c: string) => c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;

/**
 * The path resolved against the app's origin, only when it stays on that origin after
 * normalisation: "/./", "/../" and "%2e" segments can collapse "/.//evil" into "//evil", which a
 * browser reads as another host, so the check runs on the normalised result, not the input.
 */
export function safeCallbackPath(value: string | null | undefined): string {
  if (!value || value.length > 2000 || !value.startsWith("/")) return "/";
  if ([...value].some(unsafeChar)) return "/";
  const path = normalised(value);
  if (path === null || path.startsWith("//")) return "/";
  // What the browser will do with the Location header: resolve it again, against our origin.
  return normalised(path) === path ? path : "/";
}

function normalised(value: string): string | null {
  try {
    const url = new URL(value, BASE);
    return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

/** The query field a sign-in failure's code travels in (page_state/sign_in.ts reads it). */
export const ERROR_PARAM = "error";

/** The path with `error=<code>` added to its query (how sign-in failures reach the page). */
export function withErrorCode(path: string, code: string): string {
  const url = new URL(path, BASE);
  url.searchParams.set(ERROR_PARAM, code);
  return `${url.pathname}${url.search}${url.hash}`;
}
