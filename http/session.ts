// The session cookie at the edge: core/auth deals in session tokens (sign_in_session.ts,
// viewer.ts); this reads them from a request's Cookie header and answers with the Set-Cookie
// values, for /api and the pages alike.
import type { AppDeps } from "@/core/deps.ts";
import { type Viewer, viewerOfToken } from "@/core/auth/viewer.ts";
import { issueSessionToken, revokeSessionToken } from "@/core/auth/sign_in_session.ts";
import { readSessionCookie, sessionCookie } from "./cookies.ts";

type SessionDeps = Pick<AppDeps, "config" | "db" | "authSecret">;

/** The viewer of a request's Cookie header; null when signed out or the token is not current. */
export async function resolveViewer(
  deps: SessionDeps,
  cookieHeader: string | null,
  /** The request's address (http/client_address.ts), kept on the viewer for the audit log. */
  clientAddress: string | null = null,
): Promise<Viewer | null> {
  const viewer = await viewerOfToken(deps, readSessionCookie(deps.config.appUrl, cookieHeader));
  return viewer && { ...viewer, clientAddress };
}

/** A Set-Cookie value holding a fresh session token for the user. */
export async function startSession(deps: SessionDeps, userId: string): Promise<string> {
  return sessionCookie(deps.config.appUrl, await issueSessionToken(deps, userId));
}

/** A Set-Cookie value that clears the session cookie. */
export function endSession(deps: Pick<AppDeps, "config">): string {
  return sessionCookie(deps.config.appUrl, null);
}

/**
 * Sign-out: revokes the token of the request's cookie, so a copy of the cookie stops working too,
 * and answers the Set-Cookie value that clears it.
 */
export async function signOut(deps: SessionDeps, cookieHeader: string | null): Promise<string> {
  await revokeSessionToken(deps, readSessionCookie(deps.config.appUrl, cookieHeader));
  return endSession(deps);
}
