// The signed-in viewer's row: the user (only while the token's version is current and the token
// itself has not been signed out) and the role in the active organization.
import type { Kysely } from "kysely";
import type { Database, Role } from "@/db/schema.ts";

export interface ViewerRow {
  id: string;
  email: string;
  active_organization_id: string | null;
  role: Role | null;
}

export async function findViewer(
  db: Kysely<Database>,
  token: { userId: string; version: number; tokenId: string },
): Promise<ViewerRow | null> {
  const row = await db.selectFrom("users")
    .leftJoin(
      "memberships",
      (join) =>
        join.onRef("memberships.organization_id", "=", "users.active_organization_id")
          .onRef("memberships.user_id", "=", "users.id"),
    )
    .select(["users.id", "users.email", "users.active_organization_id", "memberships.role"])
    .where("users.id", "=", token.userId)
    .where("users.token_version", "=", token.version)
    .where(({ not, exists, selectFrom }) =>
      not(exists(
        selectFrom("revoked_tokens").select("token_id").where("token_id", "=", token.tokenId),
      ))
    )
    .executeTakeFirst();
  return row ?? null;
}
