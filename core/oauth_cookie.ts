// The cookie that binds an OAuth attempt to the browser that started it: it holds the state, and
// the callback is refused unless the state in the query equals it (login CSRF, DESIGN §8).
const isHttps = (appUrl: string) => appUrl.startsWith("https:");

export const OAUTH_STATE_TTL_SECONDS = 10 * 60;

export function oauthStateCookieName(appUrl: string): string {
  return isHttps(appUrl) ? "__Host-playhead_oauth" : "playhead_oauth";
}

/** The Set-Cookie value that stores the state (or clears the cookie when state is null). */
export function oauthStateCookie(appUrl: string, state: string | null): string {
  const parts = [
    `${oauthStateCookieName(appUrl)}=${state ?? ""}`,
    "Path=/",
    "HttpOnly",
    // Lax: the provider's redirect back is a top-level GET navigation, which Lax lets through.
    "SameSite=Lax",
    `Max-Age=${state ? OAUTH_STATE_TTL_SECONDS : 0}`,
  ];
  if (isHttps(appUrl)) parts.push("Secure");
  return parts.join("; ");
}

/** The state from a Cookie request header, if any. */
export function readOAuthStateCookie(appUrl: string, cookieHeader: string | null): string | null {
  const name = oauthStateCookieName(appUrl);
  for (const pair of cookieHeader?.split(";") ?? []) {
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim() || null;
  }
  return null;
}
