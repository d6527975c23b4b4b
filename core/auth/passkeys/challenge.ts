// Passkey ceremony challenges: stored server-side for five minutes (db webauthn_challenges) and
// referenced by a random id, which the edge keeps in a short-lived HttpOnly cookie
// (http/cookies.ts); verify consumes the row, once.
import type { AppDeps } from "@/core/deps.ts";
import { insertChallenge, takeChallenge } from "@/db/queries/auth/passkeys.ts";
import { validation } from "@/core/errors.ts";

/** How long a ceremony may take, from its options to its verify. */
export const CHALLENGE_TTL_SECONDS = 300;

export type CeremonyPurpose = "register" | "authenticate";

type ChallengeDeps = Pick<AppDeps, "db">;

/** Stores the challenge; returns the id that ties this browser to it. */
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
  return id;
}

/**
 * Consumes the challenge `id` names (null: the browser holds none). A missing, used, expired or other-purpose challenge,
 * or a registration challenge issued to another user, is a 400: the client asks for new options.
 */
export async function consumeChallenge(
  deps: ChallengeDeps,
  id: string | null,
  purpose: CeremonyPurpose,
  userId: string | null,
): Promise<string> {
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
