// A session's pin (migration 0036): set (kept when already pinned) or cleared, in the organization.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

/** Pins (`at`) or unpins (null) the session; its project and pin, or null when there is none. */
export async function setSessionPin(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  at: Date | null,
): Promise<{ project_id: string; pinned_at: Date | null } | null> {
  return await db.updateTable("sessions")
    .set({ pinned_at: at === null ? null : sql<Date>`COALESCE(pinned_at, ${at})` })
    .where("id", "=", id).where("organization_id", "=", organizationId)
    .returning(["project_id", "pinned_at"]).executeTakeFirst() ?? null;
}
