// How many sessions of a saved search's filter started in [from, to): the sessions list's own
// filter (db/queries/sessions/list.ts `filtered`), read through at most `cap` + 1 ids of the
// (organization_id | project_id, started_at) indexes (0013), so a count costs the same at any size.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { filtered, type SessionFilter } from "@/db/queries/sessions/list.ts";

/** The count, at most `cap + 1` (more than `cap` reads as "cap+"). */
export async function countStartedBetween(
  db: Kysely<Database>,
  filter: SessionFilter,
  from: Date,
  to: Date,
  cap: number,
): Promise<number> {
  if (filter.projectIds?.length === 0 || from.getTime() >= to.getTime()) return 0;
  const ids = filtered(db, filter)
    .where("sessions.started_at", ">=", from)
    .where("sessions.started_at", "<", to)
    .select(sql<number>`1`.as("one"))
    .limit(cap + 1);
  const row = await db.selectFrom(ids.as("matched"))
    .select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}
