// Unlinking an OAuth account under the user's row lock, so two concurrent unlinks can never
// both pass the last-login-method guard.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";

export type UnlinkOutcome = "unlinked" | "not_linked" | "last_method";

/**
 * Deletes the user's account at `provider` unless it is their last login method, counting
 * `otherMethods` (e.g. email code) beside the linked accounts.
 */
export async function unlinkAccountGuarded(
  db: Kysely<Database>,
  userId: string,
  provider: string,
  otherMethods: number,
): Promise<UnlinkOutcome> {
  return await db.transaction().execute(async (tx) => {
    await tx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().execute();
    const providers = (await tx.selectFrom("accounts").select("provider")
      .where("user_id", "=", userId).execute()).map((a) => a.provider);
    if (!providers.includes(provider)) return "not_linked";
    if (providers.length - 1 + otherMethods < 1) return "last_method";
    await tx.deleteFrom("accounts").where("user_id", "=", userId).where("provider", "=", provider)
      .execute();
    return "unlinked";
  });
}
