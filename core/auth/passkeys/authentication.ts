// Signing in with a passkey (usernameless): options with an empty allow-list so the browser offers
// the discoverable credentials it holds for this site, then verification of the assertion.
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from "@simplewebauthn/server";
import type { AppDeps } from "@/core/deps.ts";
import { findPasskey, recordPasskeyUse } from "@/db/queries/auth/passkeys.ts";
import { log } from "@/log.ts";
import { authError } from "@/core/errors.ts";
import { relyingParty } from "./relying_party.ts";
import { consumeChallenge, issueChallenge } from "./challenge.ts";

type AuthenticationDeps = Pick<AppDeps, "config" | "db">;

export async function authenticationOptions(
  deps: AuthenticationDeps,
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; challengeId: string }> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config.appUrl).id,
    userVerification: "required",
  });
  const challengeId = await issueChallenge(deps, "authenticate", null, options.challenge);
  return { options, challengeId };
}

/** Verifies the assertion against the stored passkey; returns the user to start a session for. */
export async function verifyAuthentication(
  deps: AuthenticationDeps,
  input: { response: AuthenticationResponseJSON; challengeId: string | null },
): Promise<{ userId: string }> {
  const expectedChallenge = await consumeChallenge(deps, input.challengeId, "authenticate", null);
  const db = deps.db.kysely;
  const passkey = await findPasskey(db, input.response.id);
  const handle = input.response.response.userHandle;
  if (!passkey || (handle && handle !== userHandleOf(passkey.user_id))) {
    return rejected(passkey ? "user handle mismatch" : "unknown credential");
  }
  const rp = relyingParty(deps.config.appUrl);
  const result = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: passkey.credential_id,
      publicKey: new Uint8Array(passkey.public_key),
      counter: Number(passkey.counter),
      transports: passkey.transports,
    },
    requireUserVerification: true,
  }).catch((error) => {
    log.info("auth:passkey:authenticate:rejected", { reason: String(error) });
    return null;
  });
  if (!result?.verified) return rejected("assertion not verified");

  await recordPasskeyUse(db, passkey.credential_id, {
    counter: result.authenticationInfo.newCounter,
    backedUp: result.authenticationInfo.credentialBackedUp,
  });
  log.info("auth:passkey:authenticate:ok", { userId: passkey.user_id });
  return { userId: passkey.user_id };
}

/** The base64url user handle registration gave the authenticator (the user id's bytes). */
function userHandleOf(userId: string): string {
  return new TextEncoder().encode(userId).toBase64({ alphabet: "base64url", omitPadding: true });
}

function rejected(reason: string): never {
  log.info("auth:passkey:authenticate:rejected", { reason });
  throw authError("the passkey was not accepted");
}
