// Set-based seeding of the query benchmark's database (generate_series, no per-row round trips):
// one organization, 10 projects, tracked users, sessions with url markers and small batches.
import { EventType, IncrementalSource } from "@rrweb/types";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type postgres from "postgres";
import { REBUILD_ROLLUPS } from "@/db/queries/service/rollups.ts";

export interface SeedSizes {
  sessions: number;
  trackedUsers: number;
  /** Sessions of the one heavy tracked user (`HOT_USER_ID`). */
  hotSessions: number;
}

export const ORGANIZATION_ID = "bench-org";
export const OWNER_ID = "bench-owner";
export const HOT_USER_ID = "tu0";
export const PROJECTS = 10;
export const projectId = (n: number) => `bench-p${n}`;
/** A seeded project's public key: 'sp_' || md5(id), as the seed writes it. */
export const projectKey = (n: number) =>
  `sp_${createHash("md5").update(projectId(n)).digest("hex")}`;

const SITE = "https://shop.example";
const TABLES = [
  "sessions",
  "markers",
  "event_batches",
  "tracked_users",
  "session_rollups",
  "tracked_user_rollups",
];
const PAGES = [
  "/",
  "/pricing",
  "/docs",
  "/docs/install",
  "/blog",
  "/cart",
  "/checkout",
  "/account",
  "/search",
  "/products/42",
  "/products/7",
  "/signin",
];

/** The gzip of 20 mouse-move events (~270 bytes), stored as every small batch. */
export function smallBatchBlob(): Uint8Array {
  const events = Array.from({ length: 20 }, (_, i) => ({
    type: EventType.IncrementalSnapshot,
    timestamp: 1_700_000_000_000 + i * 100,
    data: {
      source: IncrementalSource.MouseMove,
      positions: [{ x: i, y: i * 2, id: 5, timeOffset: 0 }],
    },
  }));
  return new Uint8Array(gzipSync(JSON.stringify(events)));
}

/**
 * Seeds `sql`'s (freshly migrated) database. The four big tables load without their secondary
 * indexes and with triggers off (session_replication_role = replica: no FK checks, no rollup
 * triggers); the indexes are then rebuilt from their own definitions and the tracked-user rollups
 * of migration 0004 recomputed in one statement, as that migration does. `ageDays` shifts every
 * session back (8 = all past the 7-day retention, for the cleanup run).
 */
export async function seed(
  sql: postgres.Sql,
  sizes: SeedSizes,
  blob: Uint8Array,
  options: { ageDays?: number; log?: (step: string) => void } = {},
): Promise<void> {
  const age = options.ageDays ?? 0;
  const log = options.log ?? (() => {});
  await sql.unsafe("SET maintenance_work_mem = '512MB'");
  await sql.unsafe("SET synchronous_commit = off");
  // generate_series estimates push these statements past jit_above_cost; compiling costs seconds
  await sql.unsafe("SET jit = off");
  const indexes = await sql<{ name: string; def: string }[]>`
    SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
    FROM pg_index i
    WHERE i.indrelid = ANY(${TABLES}::regclass[])
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`;
  for (const index of indexes) await sql.unsafe(`DROP INDEX ${index.name}`);

  log("seeding: organization, projects, tracked users");
  await sql.unsafe("SET session_replication_role = replica");
  await sql`INSERT INTO organizations (id, name) VALUES (${ORGANIZATION_ID}, 'Bench')`;
  await sql`INSERT INTO users (id, email, name, avatar_seed, active_organization_id)
    VALUES (${OWNER_ID}, 'owner@bench.test', 'Bench Owner', 'bench', ${ORGANIZATION_ID})`;
  await sql`INSERT INTO memberships (id, organization_id, user_id, role)
    VALUES ('bench-membership', ${ORGANIZATION_ID}, ${OWNER_ID}, 'OWNER')`;
  await sql`INSERT INTO projects (id, organization_id, name, key)
    SELECT 'bench-p' || n, ${ORGANIZATION_ID}, 'Project ' || n, 'sp_' || md5('bench-p' || n)
    FROM generate_series(0, ${PROJECTS - 1}) n`;

  // User i belongs to project i % 10; created over the last 30 days (before their sessions).
  await sql`WITH g AS MATERIALIZED (
      SELECT i, now() - make_interval(days => ${age} + 7) - random() * interval '30 days' AS t
      FROM generate_series(0, ${sizes.trackedUsers - 1}) i
    )
    INSERT INTO tracked_users
      (id, project_id, organization_id, external_id, traits, created_at, updated_at)
    SELECT 'tu' || i, 'bench-p' || (i % ${PROJECTS}), ${ORGANIZATION_ID}, 'user-' || i,
      jsonb_build_object('email', 'user' || i || '@example.test', 'name', 'User ' || i,
        'plan', (ARRAY['free', 'pro', 'team'])[1 + i % 3]),
      t, t
    FROM g`;

  log("seeding: sessions");
  // Sessions 0..hot-1 belong to the hot user; 80 % of the others to a random user of their project
  // (never users 0..9). Durations are exponential (mean 3 min, capped at 2 h); a fifth of the last
  // hour's sessions are still open.
  const perProject = Math.max(1, Math.floor(sizes.trackedUsers / PROJECTS));
  // Random values are drawn once per row in a materialized CTE, so every column agrees.
  await sql`WITH g AS MATERIALIZED (
      SELECT i, CASE WHEN i < ${sizes.hotSessions} THEN 0 ELSE i % ${PROJECTS} END AS p,
        now() - make_interval(days => ${age}) - random() * interval '6.9 days' AS started,
        LEAST(7200000, 1000 + (-180000 * ln(1 - random())))::bigint AS d,
        random() AS r, floor(random() * ${perProject - 1})::int AS u,
        gen_random_uuid()::text AS external_id, random() AS sig, random() AS client
      FROM generate_series(0, ${sizes.sessions - 1}) i
    )
    INSERT INTO sessions (id, project_id, organization_id, external_id, url, referrer,
      user_agent, screen_width, screen_height, language, started_at, ended_at, event_count,
      tracked_user_id, created_at, error_count, rage_click_count, dead_click_count, browser, os,
      device)
    SELECT 's' || i, 'bench-p' || p, ${ORGANIZATION_ID}, external_id,
      ${SITE} || (${PAGES}::text[])[1 + i % ${PAGES.length}],
      'https://search.example/', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36',
      1280, 800, 'en-GB', started,
      CASE WHEN started > now() - interval '1 hour' AND r < 0.2 THEN NULL
        ELSE LEAST(started + d * interval '1 millisecond', now()) END,
      GREATEST(2, d / 400 + (r * 50)::int),
      CASE WHEN i < ${sizes.hotSessions} THEN ${HOT_USER_ID}
        WHEN r < 0.8 THEN 'tu' || (p + ${PROJECTS} * (1 + u)) END,
      started,
      -- frustration signals: errors in 5 % of sessions, rage clicks in 2 %, dead clicks in 6 %
      CASE WHEN sig < 0.05 THEN 1 + (i % 3) ELSE 0 END,
      CASE WHEN sig >= 0.05 AND sig < 0.07 THEN 1 + (i % 2) ELSE 0 END,
      CASE WHEN sig >= 0.04 AND sig < 0.10 THEN 1 ELSE 0 END,
      -- and clients: 60 % desktop, 35 % mobile, 5 % tablet; a rare browser in 1 %
      CASE WHEN client < 0.01 THEN 'Opera' WHEN client < 0.45 THEN 'Chrome'
        WHEN client < 0.60 THEN 'Firefox' WHEN client < 0.65 THEN 'Microsoft Edge'
        ELSE 'Safari' END,
      CASE WHEN client < 0.45 THEN 'Windows' WHEN client < 0.60 THEN 'Linux'
        WHEN client < 0.65 THEN 'macOS' WHEN client < 0.95 THEN 'iOS' ELSE 'iPadOS' END,
      CASE WHEN client < 0.60 THEN 'desktop' WHEN client < 0.95 THEN 'mobile' ELSE 'tablet' END
    FROM g
    -- in the order of the (project_id, external_id) unique index: appends, not random inserts
    ORDER BY p, external_id`;

  log("seeding: day partitions, markers");
  // every seeded day gets its partition of batches and markers, as the daily cleanup makes them
  await sql`SELECT add_day_partitions((SELECT min(created_at) FROM sessions)::date,
    (now() AT TIME ZONE 'UTC')::date + 3)`;
  // 1–3 url markers per session, the first at the start on the session's url.
  await sql`INSERT INTO markers (session_id, session_created_at, ts, kind, data)
    SELECT s.id, s.created_at, start_ms + k * s.duration / n, 'url',
      jsonb_build_object('url', ${SITE} || path, 'pathname', path)
    FROM sessions s,
      LATERAL (SELECT 1 + abs(hashtext(s.id)) % 3, (extract(epoch FROM s.started_at) * 1000)::bigint,
        substr(s.url, ${SITE.length + 1})) h(n, start_ms, first_path),
      LATERAL generate_series(0, n - 1) k,
      LATERAL (SELECT CASE WHEN k = 0 THEN first_path
        ELSE (${PAGES}::text[])[1 + (abs(hashtext(s.id)) + k * 5) % ${PAGES.length}] END) q(path)`;

  log("seeding: signal markers");
  // one marker per counted signal, on 30 elements and 20 error messages
  await sql`INSERT INTO markers (session_id, session_created_at, ts, kind, data)
    SELECT s.id, s.created_at,
      (extract(epoch FROM s.started_at) * 1000)::bigint + k * s.duration / (c.n + 1), c.kind,
      CASE WHEN c.kind = 'error'
        THEN jsonb_build_object('message', 'TypeError: bench error ' || (abs(hashtext(s.id)) + k) % 20)
        ELSE jsonb_build_object('selector', 'button.cta:nth-of-type(' || (abs(hashtext(s.id)) + k) % 30 || ')',
          'text', 'Button ' || (abs(hashtext(s.id)) + k) % 30, 'x', 10, 'y', 20) END
    FROM sessions s,
      LATERAL (VALUES ('error', s.error_count), ('rage_click', s.rage_click_count),
        ('dead_click', s.dead_click_count)) c(kind, n),
      LATERAL generate_series(1, c.n) k
    WHERE s.error_count + s.rage_click_count + s.dead_click_count > 0`;

  log("seeding: batches");
  // 1–3 batches per session, each the same small gzip blob, first_ts spread over the session.
  await sql`INSERT INTO event_batches (project_id, session_external_id, session_created_at,
      first_ts, last_ts, event_count, digest, data)
    SELECT s.project_id, s.external_id, s.created_at, start_ms + k * s.duration / n,
      start_ms + (k + 1) * s.duration / n, GREATEST(1, s.event_count / n),
      decode(md5(s.id || ':' || k), 'hex'), ${blob}
    FROM sessions s,
      LATERAL (SELECT 1 + abs(hashtext(s.external_id)) % 3,
        (extract(epoch FROM s.started_at) * 1000)::bigint) h(n, start_ms),
      LATERAL generate_series(0, n - 1) k
    ORDER BY s.project_id, s.external_id`;
  log("seeding: activity summaries");
  // as ingest keeps them (migration 0010); before the sessions' indexes exist again
  await sql`SELECT session_activity_rebuild(NULL)`;
  await sql.unsafe("SET session_replication_role = origin");

  log(`seeding: ${indexes.length} indexes`);
  // a partitioned table's definition says ON ONLY (the parent alone): build every partition's too
  for (const index of indexes) await sql.unsafe(index.def.replace(" ON ONLY ", " ON "));
  log("seeding: rollups, vacuum");
  // Migration 0004's rollup, as its triggers would have kept it (with the triggers off: 0007's
  // rollups are recomputed whole below).
  await sql.unsafe("SET session_replication_role = replica");
  await sql`UPDATE tracked_users SET last_event_at = agg.last_event_at, session_count = agg.n,
      active_time = agg.total
    FROM (SELECT tracked_user_id, max(COALESCE(ended_at, started_at)) AS last_event_at,
            count(*)::integer AS n, sum(duration)::bigint AS total
          FROM sessions WHERE tracked_user_id IS NOT NULL GROUP BY tracked_user_id) agg
    WHERE agg.tracked_user_id = tracked_users.id`;
  await sql.unsafe("SET session_replication_role = origin");
  // Migration 0007's summary rollups, as its triggers would have kept them.
  for (const statement of REBUILD_ROLLUPS) await sql.unsafe(statement);
  // Migration 0017's signal rollups, as its markers trigger would have kept them.
  await sql`SELECT rebuild_signal_rollups()`;
  for (const table of TABLES) await sql.unsafe(`VACUUM (ANALYZE) ${table}`);
}
