// Starting and ending sessions in tokens: a fresh token for a signed-in user, revocation of one on
// sign-out or of all of a user's. The session cookie that carries them is the edge's
// (http/session.ts).
import type { AppDeps } from "@/core/deps.ts";
import { bumpTokenVersion, tokenVersionOf } from "@/db/queries/account/users.ts";
import { revokeToken } from "@/db/queries/auth/revoked.ts";
import { authError } from "@/core/errors.ts";
import { signSession, verifySession } from "./token.ts";

type SessionDeps = Pick<AppDeps, "db" | "authSecret">;

/** A fresh session token for the user at their current token version. */
export async function issueSessionToken(deps: SessionDeps, userId: string): Promise<string> {
  const version = await tokenVersionOf(deps.db.kysely, userId);
  if (version === null) throw authError("no such user");
  return await signSession(deps.authSecret, { userId, version });
}

/** Sign-out: revokes the token (when it is a current one), so a copy of it stops working too. */
export async function revokeSessionToken(deps: SessionDeps, token: string | null): Promise<void> {
  const claims = token ? await verifySession(deps.authSecret, token) : null;
  if (claims) await revokeToken(deps.db.kysely, claims.tokenId, claims.expiresAt);
}

/** Revokes every token of the user ("sign out everywhere"). */
export async function revokeSessions(deps: SessionDeps, userId: string): Promise<void> {
  await bumpTokenVersion(deps.db.kysely, userId);
}
