// One tracked user's sessions, latest start first, keyset on (started_at, id) within the user's
// range of sessions_tracked_user_idx (migration 0001).
import { type Expression, type Kysely, sql, type SqlBool } from "kysely";
import type { Database } from "@/db/schema.ts";
import { SESSION_ROW_COLUMNS, type SessionListRow } from "@/db/queries/sessions/list.ts";

/** A session list row without the tracked-user fields (they are the user's own). */
export type UserSessionRow = Omit<
  SessionListRow,
  "tracked_user_id" | "user_external_id" | "user_display_name" | "user_traits"
>;

export async function listUserSessions(
  db: Kysely<Database>,
  trackedUserId: string,
  page: { after: { key: number; id: string } | null; limit: number },
): Promise<UserSessionRow[]> {
  let q = db.selectFrom("sessions")
    .innerJoin("projects", "projects.id", "sessions.project_id")
    .where("sessions.tracked_user_id", "=", trackedUserId)
    .select(SESSION_ROW_COLUMNS);
  if (page.after) {
    const key = sql`('epoch'::timestamptz + ${page.after.key}::bigint * interval '1 microsecond')`;
    q = q.where(
      sql<SqlBool>`(sessions.started_at, sessions.id) < (${key}, ${page.after.id})` as Expression<
        SqlBool
      >,
    );
  }
  return await q.orderBy("sessions.started_at", "desc").orderBy("sessions.id", "desc")
    .limit(page.limit).execute();
}
