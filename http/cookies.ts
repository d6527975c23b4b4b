// Every cookie Playhead sets or reads, in one place: the session (docs/decisions.md "Sign-in and
// accounts"), the OAuth state that binds a sign-in attempt to its browser (login CSRF)
// and the passkey ceremony's challenge id. All are HttpOnly, and Secure when APP_URL is https,
// where the site-wide ones take the `__Host-` prefix. Cookie headers are read with hono's parser.
// Their lifetimes are core's (core/ imports nothing from here); core deals in the values only.
import { parse } from "hono/utils/cookie";
import { SESSION_TTL_SECONDS } from "@/core/auth/token.ts";
import { OAUTH_STATE_TTL_SECONDS } from "@/core/auth/oauth/flow.ts";
import { CHALLENGE_TTL_SECONDS } from "@/core/auth/passkeys/challenge.ts";

interface CookieSpec {
  name: string;
  path: string;
  sameSite: "Lax" | "Strict";
  maxAgeSeconds: number;
}

const isHttps = (appUrl: string) => appUrl.startsWith("https:");
const siteWideName = (appUrl: string, name: string) => isHttps(appUrl) ? `__Host-${name}` : name;

/**
 * The Set-Cookie value that stores `value`, or clears the cookie when value is null. Not hono's
 * `serialize`: it puts Max-Age first and Secure before SameSite, and the answers' order is pinned.
 */
function setCookie(appUrl: string, spec: CookieSpec, value: string | null): string {
  const parts = [
    `${spec.name}=${value ?? ""}`,
    `Path=${spec.path}`,
    "HttpOnly",
    `SameSite=${spec.sameSite}`,
    `Max-Age=${value ? spec.maxAgeSeconds : 0}`,
  ];
  if (isHttps(appUrl)) parts.push("Secure");
  return parts.join("; ");
}

/** The named cookie's value in a Cookie request header; null when absent or empty. */
function readCookie(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  return parse(cookieHeader, name)[name] || null;
}

export function sessionCookieName(appUrl: string): string {
  return siteWideName(appUrl, "playhead_session");
}

/** 30 days, SameSite=Lax (links from mail and other sites arrive signed in). */
export function sessionCookie(appUrl: string, token: string | null): string {
  const name = sessionCookieName(appUrl);
  return setCookie(
    appUrl,
    { name, path: "/", sameSite: "Lax", maxAgeSeconds: SESSION_TTL_SECONDS },
    token,
  );
}

export function readSessionCookie(appUrl: string, cookieHeader: string | null): string | null {
  return readCookie(cookieHeader, sessionCookieName(appUrl));
}

// Lax: the provider's redirect back is a top-level GET navigation, which Lax lets through.
const oauthState = (appUrl: string): CookieSpec => ({
  name: siteWideName(appUrl, "playhead_oauth"),
  path: "/",
  sameSite: "Lax",
  maxAgeSeconds: OAUTH_STATE_TTL_SECONDS,
});

/** Holds the state; the callback is refused unless the state in its query equals it. */
export function oauthStateCookie(appUrl: string, state: string | null): string {
  return setCookie(appUrl, oauthState(appUrl), state);
}

export function readOAuthStateCookie(appUrl: string, cookieHeader: string | null): string | null {
  return readCookie(cookieHeader, oauthState(appUrl).name);
}

// Sent only to the ceremony endpoints, never cross-site.
const CHALLENGE: CookieSpec = {
  name: "playhead_webauthn",
  path: "/api/auth/passkeys",
  sameSite: "Strict",
  maxAgeSeconds: CHALLENGE_TTL_SECONDS,
};

/** Holds the id of the server-side challenge row (core/auth/passkeys/challenge.ts). */
export function challengeCookie(appUrl: string, id: string | null): string {
  return setCookie(appUrl, CHALLENGE, id);
}

export function readChallengeCookie(cookieHeader: string | null): string | null {
  return readCookie(cookieHeader, CHALLENGE.name);
}
