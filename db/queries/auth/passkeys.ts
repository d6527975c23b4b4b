// Passkeys (the authenticators table) and the single-use challenges of their ceremonies.
import type { Kysely } from "kysely";
import type { Database, WebauthnChallengeTable } from "@/db/schema.ts";

const ITEM = ["credential_id", "name", "credential_device_type", "created_at"] as const;

export async function listPasskeys(db: Kysely<Database>, userId: string) {
  return await db.selectFrom("authenticators").select(ITEM).where("user_id", "=", userId)
    .orderBy("created_at").orderBy("credential_id").execute();
}

/** The user's credential ids with transports, for `excludeCredentials`. */
export async function passkeyDescriptors(db: Kysely<Database>, userId: string) {
  return await db.selectFrom("authenticators").select(["credential_id", "transports"])
    .where("user_id", "=", userId).execute();
}

export async function findPasskey(db: Kysely<Database>, credentialId: string) {
  return await db.selectFrom("authenticators").selectAll()
    .where("credential_id", "=", credentialId).executeTakeFirst() ?? null;
}

export async function countPasskeys(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db.selectFrom("authenticators").select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts the passkey; null when the credential id is already registered (to anyone). */
export async function insertPasskey(
  db: Kysely<Database>,
  row: {
    credential_id: string;
    user_id: string;
    public_key: Uint8Array;
    counter: number;
    credential_device_type: string;
    credential_backed_up: boolean;
    transports: string[];
    name: string;
  },
) {
  return await db.insertInto("authenticators").values(row)
    .onConflict((oc) => oc.column("credential_id").doNothing())
    .returning(ITEM).executeTakeFirst() ?? null;
}

/** After a sign-in: the authenticator's new signature counter and backup state. */
export async function recordPasskeyUse(
  db: Kysely<Database>,
  credentialId: string,
  state: { counter: number; backedUp: boolean },
): Promise<void> {
  await db.updateTable("authenticators")
    .set({ counter: state.counter, credential_backed_up: state.backedUp })
    .where("credential_id", "=", credentialId).execute();
}

/** Renames the user's own passkey; null when the user has no such passkey. */
export async function renamePasskey(
  db: Kysely<Database>,
  userId: string,
  credentialId: string,
  name: string,
) {
  return await db.updateTable("authenticators").set({ name })
    .where("credential_id", "=", credentialId).where("user_id", "=", userId)
    .returning(ITEM).executeTakeFirst() ?? null;
}

/** Deletes the user's own passkey; false when the user has no such passkey. */
export async function deletePasskey(
  db: Kysely<Database>,
  userId: string,
  credentialId: string,
): Promise<boolean> {
  const result = await db.deleteFrom("authenticators")
    .where("credential_id", "=", credentialId).where("user_id", "=", userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

type ChallengePurpose = WebauthnChallengeTable["purpose"];

/** Stores a challenge, and sweeps expired ones so abandoned ceremonies leave nothing behind. */
export async function insertChallenge(
  db: Kysely<Database>,
  row: {
    id: string;
    purpose: ChallengePurpose;
    user_id: string | null;
    challenge: string;
    expires_at: Date;
  },
): Promise<void> {
  await db.deleteFrom("webauthn_challenges").where("expires_at", "<", new Date()).execute();
  await db.insertInto("webauthn_challenges").values(row).execute();
}

/** Deletes and returns the challenge (whatever its purpose or age: one try per challenge). */
export async function takeChallenge(db: Kysely<Database>, id: string) {
  return await db.deleteFrom("webauthn_challenges").where("id", "=", id)
    .returning(["purpose", "user_id", "challenge", "expires_at"]).executeTakeFirst() ?? null;
}
