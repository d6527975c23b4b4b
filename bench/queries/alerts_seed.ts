// The alert benchmark's heavy project (docs/decisions.md "Alerts"): beside the seeded million
// sessions, `sessions` more created over the last 24 hours in one project, every one with a rage
// click on one of 12 pages and 30 elements (half of them a second one, 70 s later: another
// minute), written through the markers' triggers as ingest writes them; removed afterwards by
// deleting the sessions (the erasure and retention path), so the other cases' data stays as seeded.
import type postgres from "postgres";
import { ORGANIZATION_ID } from "./seed.ts";

export const HEAVY_PROJECT = "bench-alerts";
const PAGES = ["/", "/pricing", "/docs", "/cart", "/checkout", "/account", "/search", "/signin"]
  .concat(["/products/42", "/products/7", "/blog", "/docs/install"]);

/** Seconds taken by the sessions, then by their signal markers (the rollup trigger's share). */
export async function seedHeavyProject(
  sql: postgres.Sql,
  sessions: number,
): Promise<{ sessionSeconds: number; markerSeconds: number; markers: number }> {
  await sql.unsafe("SET jit = off");
  await sql`INSERT INTO projects (id, organization_id, name, key)
    VALUES (${HEAVY_PROJECT}, ${ORGANIZATION_ID}, 'Alerts', 'sp_' || md5(${HEAVY_PROJECT}))`;
  let started = performance.now();
  await sql`WITH g AS MATERIALIZED (
      SELECT i, now() - random() * interval '24 hours' AS started
      FROM generate_series(0, ${sessions - 1}) i
    )
    INSERT INTO sessions (id, project_id, organization_id, external_id, url, started_at, ended_at,
      event_count, created_at, rage_click_count, url_ts, url_pathnames)
    SELECT 'sa' || i, ${HEAVY_PROJECT}, ${ORGANIZATION_ID}, gen_random_uuid()::text,
      'https://shop.example' || (${PAGES}::text[])[1 + i % 12], started,
      started + interval '3 minutes', 10, started, 1 + i % 2,
      ARRAY[(extract(epoch FROM started) * 1000)::bigint], ARRAY[(${PAGES}::text[])[1 + i % 12]]
    FROM g`;
  const sessionSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const inserted = await sql`INSERT INTO markers (session_id, session_created_at, ts, kind, data)
    SELECT s.id, s.created_at, (extract(epoch FROM s.started_at) * 1000)::bigint + k * 70000,
      'rage_click', jsonb_build_object('selector',
        'button.cta:nth-of-type(' || abs(hashtext(s.id)) % 30 || ')', 'text', 'Buy')
    FROM sessions s, LATERAL generate_series(1, s.rage_click_count) k
    WHERE s.project_id = ${HEAVY_PROJECT}`;
  const markerSeconds = (performance.now() - started) / 1000;
  // as autovacuum would after such a load: without it the markers' reading ("before") plans for
  // the project's sessions as one and reads the window's markers once per session
  await sql.unsafe(
    "ANALYZE sessions, markers, alert_signal_minutes, alert_signal_last, alert_signal_last_counts",
  );
  return { sessionSeconds, markerSeconds, markers: inserted.count };
}

/** Deletes the project's sessions (their triggers take the rollup rows too); seconds taken. */
export async function removeHeavyProject(sql: postgres.Sql): Promise<number> {
  const started = performance.now();
  await sql`DELETE FROM sessions WHERE project_id = ${HEAVY_PROJECT}`;
  const seconds = (performance.now() - started) / 1000;
  await sql`DELETE FROM projects WHERE id = ${HEAVY_PROJECT}`;
  await sql.unsafe(
    "VACUUM (ANALYZE) sessions, markers, signal_rollups, alert_signal_minutes, alert_signal_last, " +
      "alert_signal_last_counts",
  );
  return seconds;
}

/** Rows left of the project (0 after its removal: the delete triggers took them). */
export async function heavyRowsLeft(sql: postgres.Sql): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::integer AS n
    FROM alert_signal_minutes WHERE project_id = ${HEAVY_PROJECT}`;
  return n;
}
