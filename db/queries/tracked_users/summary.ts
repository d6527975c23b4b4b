// The tracked-users KPIs from tracked_user_rollups (migration 0007): users per UTC hour of
// creation and of their last event. A rolling bound takes the whole hours after it from the rollup
// and the part of the hour it falls in from the users themselves (an index range of at most an
// hour), so the counts are exact and cost the same at any number of users. Online (the last two
// minutes) is a short index range of its own.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { LAST_SEEN, type TrackedUserFilter } from "./list.ts";

export interface TrackedUserSummaryRow {
  total: number;
  online_now: number;
  active_24h: number;
  new_this_week: number;
}

const HOUR_MS = 3_600_000;
const CREATED = sql`tracked_users.created_at`;

export async function summarizeTrackedUsers(
  db: Kysely<Database>,
  organizationId: string,
  bounds: TrackedUserFilter["bounds"],
): Promise<TrackedUserSummaryRow> {
  const rolled = (kind: string, from: Date | null) =>
    sql<number>`(SELECT COALESCE(sum(users), 0) FROM tracked_user_rollups
      WHERE organization_id = ${organizationId} AND kind = ${kind}
      ${from ? sql`AND hour >= ${from}` : sql``})`;
  const counted = (column: RawBuilder<unknown>, from: Date, until: Date | null) =>
    sql<number>`(SELECT count(*) FROM tracked_users
      WHERE tracked_users.organization_id = ${organizationId} AND ${column} >= ${from}
      ${until ? sql`AND ${column} < ${until}` : sql``})`;
  /** Users whose `column` is at or after `from`: whole hours rolled up, the first one counted. */
  const since = (kind: string, column: RawBuilder<unknown>, from: Date) => {
    const hour = new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS);
    return sql<number>`(${rolled(kind, hour)} + ${counted(column, from, hour)})::integer`;
  };
  const { rows } = await sql<TrackedUserSummaryRow>`SELECT
    ${rolled("created", null)}::integer AS total,
    ${counted(LAST_SEEN, bounds.online, null)}::integer AS online_now,
    ${since("last_seen", LAST_SEEN, bounds.day)} AS active_24h,
    ${since("created", CREATED, bounds.week)} AS new_this_week`.execute(db);
  return rows[0];
}
