// Registering a passkey after a primary sign-in: options for navigator.credentials.create() with a
// server-kept challenge, then verification of the attestation and storage of the authenticator.
import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AppDeps } from "@/core/deps.ts";
import { countPasskeys, insertPasskey, passkeyDescriptors } from "@/db/queries/auth/passkeys.ts";
import { findUserById } from "@/db/queries/account/users.ts";
import { log } from "@/log.ts";
import { authError, conflict, validation } from "@/core/errors.ts";
import { defaultPasskeyName } from "./name.ts";
import { type Passkey, toPasskey } from "./passkeys.ts";
import { relyingParty } from "./relying_party.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { consumeChallenge, issueChallenge } from "./challenge.ts";

type RegistrationDeps = Pick<AppDeps, "config" | "db">;

export async function registrationOptions(
  deps: RegistrationDeps,
  viewer: Viewer,
): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; challengeId: string }> {
  const db = deps.db.kysely;
  const [user, existing] = await Promise.all([
    findUserById(db, viewer.userId),
    passkeyDescriptors(db, viewer.userId),
  ]);
  if (!user) throw authError();
  const rp = relyingParty(deps.config.appUrl);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    // The user handle is the user id, so a sign-in can check the credential is the user's own.
    userID: new TextEncoder().encode(user.id),
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: c.transports })),
    // Discoverable (sign-in without typing an email) and verified (a passkey replaces a password).
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  const challengeId = await issueChallenge(deps, "register", viewer.userId, options.challenge);
  return { options, challengeId };
}

export interface RegistrationInput {
  response: RegistrationResponseJSON;
  /** Trimmed, 1..50 characters; a default is derived from the User-Agent when absent. */
  name?: string;
  userAgent: string | null;
  /** The ceremony's challenge id (from its cookie); null when the browser holds none. */
  challengeId: string | null;
}

export async function verifyRegistration(
  deps: RegistrationDeps,
  viewer: Viewer,
  input: RegistrationInput,
): Promise<Passkey> {
  const expectedChallenge = await consumeChallenge(
    deps,
    input.challengeId,
    "register",
    viewer.userId,
  );
  const rp = relyingParty(deps.config.appUrl);
  const result = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch((error) => {
    log.info("auth:passkey:register:rejected", { userId: viewer.userId, reason: String(error) });
    return null;
  });
  if (!result?.verified) throw validation("the passkey could not be verified");

  const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
  const db = deps.db.kysely;
  const name = input.name ??
    defaultPasskeyName(input.userAgent, await countPasskeys(db, viewer.userId));
  const row = await insertPasskey(db, {
    credential_id: credential.id,
    user_id: viewer.userId,
    public_key: credential.publicKey,
    counter: credential.counter,
    credential_device_type: credentialDeviceType,
    credential_backed_up: credentialBackedUp,
    transports: credential.transports ?? [],
    name,
  });
  if (!row) throw conflict("this passkey is already registered");
  log.info("auth:passkey:register:ok", { userId: viewer.userId, deviceType: credentialDeviceType });
  return toPasskey(row);
}
