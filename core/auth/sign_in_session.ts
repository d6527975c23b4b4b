// Starting and ending sessions: the Set-Cookie values the sign-in flows and sign-out answer with.
import type { AppDeps } from "../deps.ts";
import { bumpTokenVersion, tokenVersionOf } from "../../db/queries/account/users.ts";
import { revokeToken } from "../../db/queries/auth/revoked.ts";
import { authError } from "../errors.ts";
import { sessionCookie } from "../../http/cookies.ts";
import { readSessionCookie } from "../../http/cookies.ts";
import { signSession, verifySession } from "./token.ts";

type SessionDeps = Pick<AppDeps, "config" | "db" | "authSecret">;

/** A Set-Cookie value holding a fresh token for the user at their current token version. */
export async function startSession(deps: SessionDeps, userId: string): Promise<string> {
  const version = await tokenVersionOf(deps.db.kysely, userId);
  if (version === null) throw authError("no such user");
  const token = await signSession(deps.authSecret, { userId, version });
  return sessionCookie(deps.config.appUrl, token);
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
  const token = readSessionCookie(deps.config.appUrl, cookieHeader);
  const claims = token ? await verifySession(deps.authSecret, token) : null;
  if (claims) await revokeToken(deps.db.kysely, claims.tokenId, claims.expiresAt);
  return endSession(deps);
}

/** Revokes every token of the user ("sign out everywhere"). */
export async function revokeSessions(deps: SessionDeps, userId: string): Promise<void> {
  await bumpTokenVersion(deps.db.kysely, userId);
}
