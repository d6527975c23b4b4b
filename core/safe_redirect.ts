// Where a sign-in may send the browser afterwards: only a same-origin relative path ("/x"), never
// "//host", "/\host", an absolute URL or anything with control characters; otherwise "/".
const BASE = "http://playhead.invalid";

// Browsers read "\" as "/" and drop tabs and newlines, which would turn "/\host" into "//host".
const unsafeChar = (c: string) => c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;

export function safeCallbackPath(value: string | null | undefined): string {
  if (!value || value.length > 2000 || !value.startsWith("/")) return "/";
  if (value.startsWith("//") || [...value].some(unsafeChar)) return "/";
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return "/";
  }
  return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : "/";
}

/** The path with `error=<code>` added to its query (how sign-in failures reach the page). */
export function withErrorCode(path: string, code: string): string {
  const url = new URL(path, BASE);
  url.searchParams.set("error", code);
  return `${url.pathname}${url.search}${url.hash}`;
}
