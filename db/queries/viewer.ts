// The signed-in viewer's row: the user (only while the token's version is current) and the role
// in the active organisation.
import type { Kysely } from "kysely";
import type { Database, Role } from "../schema.ts";

export interface ViewerRow {
  id: string;
  email: string;
  active_organization_id: string | null;
  role: Role | null;
}

export async function findViewer(
  db: Kysely<Database>,
  userId: string,
  tokenVersion: number,
): Promise<ViewerRow | null> {
  const row = await db.selectFrom("users")
    .leftJoin(
      "memberships",
      (join) =>
        join.onRef("memberships.organization_id", "=", "users.active_organization_id")
          .onRef("memberships.user_id", "=", "users.id"),
    )
    .select(["users.id", "users.email", "users.active_organization_id", "memberships.role"])
    .where("users.id", "=", userId)
    .where("users.token_version", "=", tokenVersion)
    .executeTakeFirst();
  return row ?? null;
}
