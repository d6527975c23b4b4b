// The tracked-users list and its KPIs: one organization, filters, keyset pages served by the
// per-sort indexes of migration 0004 over the rollup columns the session triggers keep.
import { type Expression, type Kysely, type RawBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "@/db/schema.ts";
import { displayNameSql } from "./display_name.ts";

export type TrackedUserSort = "last-seen" | "sessions" | "active-time" | "newest";
export type StatusName = "ONLINE" | "ACTIVE_24H" | "IDLE_7D" | "DORMANT";

export interface TrackedUserFilter {
  organizationId: string;
  /** null = every project; ids of other organizations' projects match nothing. */
  projectIds: string[] | null;
  search: string | null;
  /** null = every status. */
  statuses: StatusName[] | null;
  /** Inclusive lower bounds of lastEventAt for ONLINE, ACTIVE_24H and IDLE_7D. */
  bounds: { online: Date; day: Date; week: Date };
}

export interface TrackedUserPage {
  sort: TrackedUserSort;
  dir: "asc" | "desc";
  after: { key: number | null; id: string } | null;
  limit: number;
}

export interface TrackedUserRow {
  id: string;
  external_id: string;
  display_name: string;
  project_id: string;
  project_name: string;
  traits: Record<string, unknown>;
  custom_name: string | null;
  display_name_trait_key: string | null;
  session_count: number;
  last_event_at: Date | null;
  active_time: number;
  created_at: Date;
}

// lastEventAt with "never" as -infinity, exactly as indexed, so nulls sort and page like values.
export const LAST_SEEN = sql`COALESCE(tracked_users.last_event_at, '-infinity'::timestamptz)`;
const fromMicros = (key: unknown) =>
  sql`('epoch'::timestamptz + ${key}::bigint * interval '1 microsecond')`;
const micros = (column: RawBuilder<unknown>) =>
  sql<number | null>`(extract(epoch FROM ${column}) * 1000000)::bigint`;

/** Sort column, the cursor key of a row, and a cursor key back in the column's type. */
const SORTS: Record<TrackedUserSort, {
  column: RawBuilder<unknown>;
  key: RawBuilder<number | null>;
  from: (key: number | null) => RawBuilder<unknown>;
}> = {
  "last-seen": {
    column: LAST_SEEN,
    key: micros(sql`tracked_users.last_event_at`),
    from: (key) => sql`COALESCE(${fromMicros(key)}, '-infinity'::timestamptz)`,
  },
  sessions: {
    column: sql`tracked_users.session_count`,
    key: sql<number>`tracked_users.session_count`,
    from: (key) => sql`${key}::integer`,
  },
  "active-time": {
    column: sql`tracked_users.active_time`,
    key: sql<number>`tracked_users.active_time`,
    from: (key) => sql`${key}::bigint`,
  },
  newest: {
    column: sql`tracked_users.created_at`,
    key: micros(sql`tracked_users.created_at`),
    from: fromMicros,
  },
};

function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function statusCondition(status: StatusName, b: TrackedUserFilter["bounds"]) {
  if (status === "ONLINE") return sql`${LAST_SEEN} >= ${b.online}`;
  if (status === "ACTIVE_24H") {
    return sql`(${LAST_SEEN} >= ${b.day} AND ${LAST_SEEN} < ${b.online})`;
  }
  if (status === "IDLE_7D") return sql`(${LAST_SEEN} >= ${b.week} AND ${LAST_SEEN} < ${b.day})`;
  return sql`${LAST_SEEN} < ${b.week}`;
}

function filtered(db: Kysely<Database>, f: TrackedUserFilter) {
  let q = db.selectFrom("tracked_users")
    .innerJoin("projects", "projects.id", "tracked_users.project_id")
    .where("tracked_users.organization_id", "=", f.organizationId);
  if (f.projectIds) q = q.where("tracked_users.project_id", "in", f.projectIds);
  if (f.search) {
    const pattern = containing(f.search);
    // search_text (migration 0018) holds the id and every name the display name can be, so its
    // trigram index narrows the users first, then the exact test runs on those alone.
    q = q.where(sql<SqlBool>`(tracked_users.search_text ILIKE ${pattern}
      AND (tracked_users.external_id ILIKE ${pattern} OR ${displayNameSql()} ILIKE ${pattern}))` as Expression<
      SqlBool
    >);
  }
  if (f.statuses) {
    const any = sql.join(f.statuses.map((s) => statusCondition(s, f.bounds)), sql` OR `);
    q = q.where(sql<SqlBool>`(${any})` as Expression<SqlBool>);
  }
  return q;
}

export function trackedUserColumns() {
  return [
    "tracked_users.id",
    "tracked_users.external_id",
    displayNameSql().$castTo<string>().as("display_name"),
    "tracked_users.project_id",
    "projects.name as project_name",
    sql<Record<string, unknown>>`tracked_users.traits`.as("traits"),
    "tracked_users.custom_name",
    "tracked_users.display_name_trait_key",
    "tracked_users.session_count",
    "tracked_users.last_event_at",
    "tracked_users.active_time",
    "tracked_users.created_at",
  ] as const;
}

/** Up to `limit` rows strictly after the cursor, each with its cursor key. */
export async function listTrackedUsers(
  db: Kysely<Database>,
  filter: TrackedUserFilter,
  page: TrackedUserPage,
): Promise<(TrackedUserRow & { sort_key: number | null })[]> {
  if (filter.projectIds?.length === 0 || filter.statuses?.length === 0) return [];
  const sort = SORTS[page.sort];
  const id = sql.ref("tracked_users.id");
  let q = filtered(db, filter).select([...trackedUserColumns(), sort.key.as("sort_key")]);
  if (page.after) {
    const op = sql.raw(page.dir === "desc" ? "<" : ">");
    const key = sort.from(page.after.key);
    q = q.where(
      sql<SqlBool>`(${sort.column}, ${id}) ${op} (${key}, ${page.after.id})` as Expression<SqlBool>,
    );
  }
  const dir = sql.raw(page.dir);
  return await q.orderBy(sql`${sort.column} ${dir}`).orderBy(sql`${id} ${dir}`)
    .limit(page.limit).execute();
}
