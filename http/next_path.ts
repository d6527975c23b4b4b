// The way back from sign-in: dashboard pages send visitors to `/signin?next=<path>`, and sign-in
// follows `next` only when it is a same-origin relative path (core/auth/safe_redirect.ts).
import { safeCallbackPath } from "@/core/auth/safe_redirect.ts";
export { safeCallbackPath as safeNextPath };

/** Where sign-in goes: the page asked for, else the sessions list (docs/decisions.md "Pages"). */
export function landingPath(next: string | null): string {
  const path = safeCallbackPath(next);
  return path === "/" ? "/sessions" : path;
}

/** The sign-in page that sends the visitor back to `url` afterwards. */
export function signInPath(url: URL): string {
  return `/signin?next=${encodeURIComponent(url.pathname + url.search)}`;
}
