// Starting and ending sessions: the Set-Cookie values the sign-in flows and sign-out answer with.
import type { AppDeps } from "../app_deps.ts";
import { bumpTokenVersion, tokenVersionOf } from "../db/queries/users.ts";
import { authError } from "./errors.ts";
import { sessionCookie } from "./session_cookie.ts";
import { signSession } from "./session_token.ts";

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

/** Revokes every token of the user ("sign out everywhere"). */
export async function revokeSessions(deps: SessionDeps, userId: string): Promise<void> {
  await bumpTokenVersion(deps.db.kysely, userId);
}
