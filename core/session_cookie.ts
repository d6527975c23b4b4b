// The session cookie (DECISIONS "Sign-in and accounts"): `playhead_session`, or
// `__Host-playhead_session` when the app is served over https, HttpOnly, SameSite=Lax, 30 days.
import { SESSION_TTL_SECONDS } from "./session_token.ts";

const isHttps = (appUrl: string) => appUrl.startsWith("https:");

export function sessionCookieName(appUrl: string): string {
  return isHttps(appUrl) ? "__Host-playhead_session" : "playhead_session";
}

/** The Set-Cookie value that stores `token` (or clears the cookie when token is null). */
export function sessionCookie(appUrl: string, token: string | null): string {
  const parts = [
    `${sessionCookieName(appUrl)}=${token ?? ""}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${token ? SESSION_TTL_SECONDS : 0}`,
  ];
  if (isHttps(appUrl)) parts.push("Secure");
  return parts.join("; ");
}

/** The session token from a Cookie request header, if any. */
export function readSessionCookie(appUrl: string, cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const name = sessionCookieName(appUrl);
  for (const pair of cookieHeader.split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim() || null;
  }
  return null;
}
