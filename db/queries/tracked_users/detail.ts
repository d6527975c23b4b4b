// One tracked user of an organization: read, display-name overrides, deletion. Every lookup is
// scoped by organization so another organization's user reads as missing.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { trackedUserColumns, type TrackedUserRow } from "./list.ts";

export async function findTrackedUser(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<TrackedUserRow | null> {
  const row = await db.selectFrom("tracked_users")
    .innerJoin("projects", "projects.id", "tracked_users.project_id")
    .select(trackedUserColumns())
    .where("tracked_users.organization_id", "=", organizationId)
    .where("tracked_users.id", "=", id)
    .executeTakeFirst();
  return row ?? null;
}

/** The heartbeat's one-row read; null when the user is not in the organization. */
export async function trackedUserLastEvent(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<{ last_event_at: Date | null } | null> {
  const row = await db.selectFrom("tracked_users").select("last_event_at")
    .where("organization_id", "=", organizationId).where("id", "=", id)
    .executeTakeFirst();
  return row ?? null;
}

/** The heartbeat of many users at once; ids outside the organization are left out. */
export async function trackedUsersLastEvents(
  db: Kysely<Database>,
  organizationId: string,
  ids: string[],
): Promise<{ id: string; last_event_at: Date | null }[]> {
  return await db.selectFrom("tracked_users").select(["id", "last_event_at"])
    .where("organization_id", "=", organizationId).where("id", "in", ids)
    .execute();
}

/** Sets the given overrides (undefined = leave, null = clear); false when there is no such user. */
export async function updateDisplayNameOverrides(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  changes: { customName?: string | null; traitKey?: string | null },
): Promise<boolean> {
  const result = await db.updateTable("tracked_users")
    .set({
      ...(changes.customName !== undefined ? { custom_name: changes.customName } : {}),
      ...(changes.traitKey !== undefined ? { display_name_trait_key: changes.traitKey } : {}),
      updated_at: new Date(),
    })
    .where("organization_id", "=", organizationId).where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the user; its sessions stay, unlinked (ON DELETE SET NULL). */
export async function deleteTrackedUser(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const result = await db.deleteFrom("tracked_users")
    .where("organization_id", "=", organizationId).where("id", "=", id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
