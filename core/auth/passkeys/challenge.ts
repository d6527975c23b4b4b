// Passkey ceremony challenges: stored server-side for five minutes (db webauthn_challenges) and
// referenced by a random id in a short-lived HttpOnly cookie; verify consumes the row, once.
import type { AppDeps } from "../../deps.ts";
import { insertChallenge, takeChallenge } from "@/db/queries/auth/passkeys.ts";
import { validation } from "../../errors.ts";
import { CHALLENGE_TTL_SECONDS, challengeCookie, readChallengeCookie } from "@/http/cookies.ts";

export type CeremonyPurpose = "register" | "authenticate";

type ChallengeDeps = Pick<AppDeps, "config" | "db">;

/** Stores the challenge; returns the Set-Cookie value that ties this browser to it. */
export async function issueChallenge(
  deps: ChallengeDeps,
  purpose: CeremonyPurpose,
  userId: string | null,
  challenge: string,
): Promise<string> {
  const id = crypto.getRandomValues(new Uint8Array(32))
    .toBase64({ alphabet: "base64url", omitPadding: true });
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000);
  await insertChallenge(deps.db.kysely, {
    id,
    purpose,
    user_id: userId,
    challenge,
    expires_at: expiresAt,
  });
  return challengeCookie(deps.config.appUrl, id);
}

/**
 * Consumes the challenge the cookie points at. A missing, used, expired or other-purpose challenge,
 * or a registration challenge issued to another user, is a 400: the client asks for new options.
 */
export async function consumeChallenge(
  deps: ChallengeDeps,
  cookieHeader: string | null,
  purpose: CeremonyPurpose,
  userId: string | null,
): Promise<string> {
  const id = readChallengeCookie(cookieHeader);
  const row = id ? await takeChallenge(deps.db.kysely, id) : null;
  const usable = row && row.purpose === purpose && row.user_id === userId &&
    new Date(row.expires_at).getTime() > Date.now();
  if (!usable) {
    throw validation("no passkey challenge in progress; request new options", [
      { path: "challenge", message: "missing, expired or already used" },
    ]);
  }
  return row.challenge;
}
