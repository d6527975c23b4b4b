// Where a visitor goes after signing in: only a same-origin relative path is ever followed, so a
// crafted `next` cannot send anyone to another site.
const BASE = "http://next.invalid";

/** `raw` when it is a relative path on this origin (`/…`, not `//…`), else `fallback`. */
export function safeNextPath(raw: string | null | undefined, fallback = "/"): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) {
    return fallback;
  }
  try {
    const url = new URL(raw, BASE);
    if (url.origin !== BASE) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** The sign-in page that sends the visitor back to `url` afterwards. */
export function signInPath(url: URL): string {
  return `/signin?next=${encodeURIComponent(url.pathname + url.search)}`;
}
