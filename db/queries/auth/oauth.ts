// OAuth sign-ins in flight (oauth_states) and linked provider accounts (accounts).
import { createId } from "@paralleldrive/cuid2";
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface OAuthStateRow {
  provider: string;
  code_verifier: string;
  nonce: string | null;
  callback_url: string;
  link_user_id: string | null;
}

/** Stores a new attempt and sweeps expired ones (few rows: each lives ten minutes). */
export async function saveOAuthState(
  db: Kysely<Database>,
  stateHash: string,
  row: OAuthStateRow,
  ttlSeconds: number,
): Promise<void> {
  await db.deleteFrom("oauth_states").where("expires_at", "<", sql<Date>`now()`).execute();
  await db.insertInto("oauth_states").values({
    state_hash: stateHash,
    ...row,
    expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})`,
  }).execute();
}

/** Deletes and returns the unexpired attempt: a state can be taken once only. */
export async function takeOAuthState(
  db: Kysely<Database>,
  stateHash: string,
  provider: string,
): Promise<OAuthStateRow | null> {
  const row = await db.deleteFrom("oauth_states")
    .where("state_hash", "=", stateHash)
    .where("provider", "=", provider)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning(["provider", "code_verifier", "nonce", "callback_url", "link_user_id"])
    .executeTakeFirst();
  return row ?? null;
}

/** The user a provider account is linked to, or null. */
export async function accountOwner(
  db: Kysely<Database>,
  provider: string,
  providerAccountId: string,
): Promise<string | null> {
  const row = await db.selectFrom("accounts").select("user_id")
    .where("provider", "=", provider).where("provider_account_id", "=", providerAccountId)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * Links the provider account to the user; false when either side is already taken (the account
 * by any user, or this provider by another account of the user).
 */
export async function insertAccount(
  db: Kysely<Database>,
  input: { userId: string; provider: string; providerAccountId: string; email: string | null },
): Promise<boolean> {
  const rows = await db.insertInto("accounts").values({
    id: createId(),
    user_id: input.userId,
    provider: input.provider,
    provider_account_id: input.providerAccountId,
    email: input.email,
  }).onConflict((oc) => oc.doNothing()).returning("id").execute();
  return rows.length === 1;
}
