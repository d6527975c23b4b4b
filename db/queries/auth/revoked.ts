// Session tokens signed out before their expiry. A row lives only until the token would have
// expired on its own; the daily cleanup deletes it after that.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";

export async function revokeToken(
  db: Kysely<Database>,
  tokenId: string,
  expiresAt: Date,
): Promise<void> {
  await db.insertInto("revoked_tokens").values({ token_id: tokenId, expires_at: expiresAt })
    .onConflict((oc) => oc.column("token_id").doNothing()).execute();
}

/** Revocations of tokens expired before `now`, at most `limit` of them. */
export async function deleteExpiredRevocations(
  db: Kysely<Database>,
  now: Date,
  limit: number,
): Promise<number> {
  const gone = await db.deleteFrom("revoked_tokens").where(
    "token_id",
    "in",
    db.selectFrom("revoked_tokens").select("token_id").where("expires_at", "<", now).limit(limit),
  ).executeTakeFirst();
  return Number(gone.numDeletedRows);
}
