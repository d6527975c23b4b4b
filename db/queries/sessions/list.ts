// The sessions list and its KPI strip: one organization, optional filters, keyset pages served by
// the (organization_id | project_id, started_at|duration DESC, id DESC) indexes (0001, 0013).
import { type Expression, type Kysely, sql, type SqlBool } from "kysely";
import type { Database } from "@/db/schema.ts";
import { displayNameSql } from "@/db/queries/tracked_users/display_name.ts";
import { clickedMoment } from "@/db/queries/heatmaps/clicked.ts";
import {
  containing,
  matchingUsers,
  searchConditions,
  type SessionSearch,
  SIGNAL_TOTAL,
} from "./search.ts";
import {
  COMMENT_COUNT,
  commentConditions,
  type CommentFilter,
} from "@/db/queries/comments/session_filter.ts";

export interface SessionFilter {
  organizationId: string;
  /** null = every project; ids of other organizations' projects simply match nothing. */
  projectIds: string[] | null;
  /** createdAt lower bound (inclusive); null = no bound. */
  since: Date | null;
  search: string | null;
  /** `search` also matches the tracked user, as `narrow.user` does. */
  searchUsers?: boolean;
  /** The search conditions beyond the external id (db/queries/sessions/search.ts). */
  narrow?: SessionSearch;
  comments?: CommentFilter;
  /** true: only pinned sessions; false: only the others (migration 0036). */
  pinned?: boolean | null;
}

export interface SessionPage {
  sort: "date" | "duration" | "signals";
  dir: "asc" | "desc";
  after: { key: number; id: string } | null;
  limit: number;
}

export interface SessionListRow {
  id: string;
  external_id: string;
  project_id: string;
  project_name: string;
  url: string | null;
  duration: number;
  event_count: number;
  created_at: Date;
  started_at: Date;
  /** started_at in epoch microseconds, the date cursor's key. */
  started_us: number;
  tracked_user_id: string | null;
  user_external_id: string | null;
  user_display_name: string | null;
  user_traits: Record<string, unknown> | null;
  error_count: number;
  rage_click_count: number;
  dead_click_count: number;
  network_error_count: number;
  /** The three counts' sum, the signals cursor's key. */
  signal_total: number;
  browser: string | null;
  os: string | null;
  device: string | null;
  recording_reason: string;
  triggered_at: number | null;
  comment_count: number;
  pinned_at: Date | null;
  /** Under `clicked`/`clickedCell`: where the replay opens (db/queries/heatmaps/clicked.ts). */
  opening_ms?: number | null;
}

/** The session and project columns of a list row (sessions joined to projects). */
export const SESSION_ROW_COLUMNS = [
  "sessions.id",
  "sessions.external_id",
  "sessions.project_id",
  "projects.name as project_name",
  "sessions.url",
  "sessions.duration",
  "sessions.event_count",
  "sessions.created_at",
  "sessions.started_at",
  sql<number>`(extract(epoch FROM sessions.started_at) * 1000000)::bigint`.as("started_us"),
  "sessions.error_count",
  "sessions.rage_click_count",
  "sessions.dead_click_count",
  "sessions.network_error_count",
  SIGNAL_TOTAL.as("signal_total"),
  "sessions.browser",
  "sessions.os",
  "sessions.device",
  "sessions.recording_reason",
  "sessions.triggered_at",
  COMMENT_COUNT.as("comment_count"),
  "sessions.pinned_at",
] as const;

/** The sessions of the filter (organization, projects, since, search). */
export function filtered(db: Kysely<Database>, f: SessionFilter) {
  let q = db.selectFrom("sessions").where("sessions.organization_id", "=", f.organizationId);
  if (f.projectIds) q = q.where("sessions.project_id", "in", f.projectIds);
  if (f.since) q = q.where("sessions.created_at", ">=", f.since);
  if (f.search && f.searchUsers) {
    // Two index reads (the id's trigrams, the users' trigrams) united, rather than an OR the
    // planner could only answer by reading every session.
    q = q.where(sql<SqlBool>`sessions.id IN (
      SELECT s.id FROM sessions s WHERE s.external_id ILIKE ${containing(f.search)}
      UNION ALL
      SELECT s.id FROM sessions s
      WHERE s.tracked_user_id IN ${matchingUsers(f.organizationId, f.search)}
    )` as Expression<SqlBool>);
  } else if (f.search) q = q.where("sessions.external_id", "ilike", containing(f.search));
  if (f.narrow) {
    for (const condition of searchConditions(f.organizationId, f.narrow, f.since)) {
      q = q.where(condition);
    }
  }
  for (const condition of f.comments ? commentConditions(f.comments) : []) q = q.where(condition);
  if (f.pinned != null) q = q.where("sessions.pinned_at", f.pinned ? "is not" : "is", null);
  return q;
}

/** Up to `limit` rows strictly after the cursor in the requested order. */
export async function listSessions(
  db: Kysely<Database>,
  filter: SessionFilter,
  page: SessionPage,
): Promise<SessionListRow[]> {
  if (filter.projectIds?.length === 0) return [];
  // "date" is when the session started (its first event), not when its first batch arrived.
  const column = page.sort === "date"
    ? sql.ref("sessions.started_at")
    : page.sort === "signals"
    ? SIGNAL_TOTAL
    : sql.ref("sessions.duration");
  const id = sql.ref("sessions.id");
  const dir = sql.raw(page.dir);
  // The page's ids come from sessions alone, and only they are joined: when the planner takes a
  // search's trigram matches (thousands for three letters) and sorts them, it then sorts bare
  // rows instead of joining every match to its project and tracked user first (61 → 27 ms for
  // "a3f" at 1,000,000 sessions).
  let ids = filtered(db, filter).select("sessions.id");
  if (page.after) {
    // The cursor key back in the column's own type, at full precision.
    const key = page.sort === "date"
      ? sql`('epoch'::timestamptz + ${page.after.key}::bigint * interval '1 microsecond')`
      : sql`${page.after.key}::bigint`;
    const op = sql.raw(page.dir === "desc" ? "<" : ">");
    ids = ids.where(sql<SqlBool>`(${column}, ${id}) ${op} (${key}, ${page.after.id})` as Expression<
      SqlBool
    >);
  }
  ids = ids.orderBy(sql`${column} ${dir}`).orderBy(sql`${id} ${dir}`).limit(page.limit);
  const opening = filter.narrow ? clickedMoment(filter.organizationId, filter.narrow) : null;
  return await db.selectFrom("sessions").where("sessions.id", "in", ids)
    .innerJoin("projects", "projects.id", "sessions.project_id")
    .leftJoin("tracked_users", "tracked_users.id", "sessions.tracked_user_id")
    .select([
      ...SESSION_ROW_COLUMNS,
      "sessions.tracked_user_id",
      "tracked_users.external_id as user_external_id",
      displayNameSql().as("user_display_name"),
      sql<Record<string, unknown> | null>`tracked_users.traits`.as("user_traits"),
    ])
    .$if(opening !== null, (q) => q.select(opening!.as("opening_ms")))
    .orderBy(sql`${column} ${dir}`).orderBy(sql`${id} ${dir}`).execute();
}
