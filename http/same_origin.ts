// The one same-origin check for cookie-authenticated mutations, used by the /api
// dashboard sub-apps and by page forms: the Origin header equals APP_URL's origin, or (without
// Origin) Sec-Fetch-Site says same-origin. Safe methods always pass.
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function fromOwnOrigin(req: Request, appUrl: string): boolean {
  if (SAFE_METHODS.has(req.method)) return true;
  const origin = req.headers.get("origin");
  if (origin) return origin === new URL(appUrl).origin;
  return req.headers.get("sec-fetch-site") === "same-origin";
}
