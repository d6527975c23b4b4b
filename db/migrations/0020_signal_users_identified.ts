// A session's signals credit the user it is identified as, whenever in the session the identify
// comes (0017 credited only signals stored after it): when an update of sessions gives a session
// with signals a tracked user, signal_users gets that user for each of the session's signal keys.
// The back-fill credits the users of sessions already identified after their signals.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER sessions_identified_signal_users ON sessions`.execute(db);
  await sql`DROP FUNCTION signal_users_identified()`.execute(db);
}

/** The key a signal marker `m` rolls up under, as 0017 writes it. */
const KEY = `CASE m.kind WHEN 'error' THEN COALESCE(m.data ->> 'message', '')
  ELSE m.data ->> 'selector' END`;

/** signal_users' rows of the sessions `s` (a relation): one per key and user, newest session. */
const userRows = (sessions: string) =>
  `SELECT s.organization_id, m.kind, ${KEY} AS key, s.project_id, s.tracked_user_id,
     max(s.created_at) AS last_created_at
   FROM ${sessions} s JOIN markers m
     ON m.session_id = s.id AND m.session_created_at = s.created_at
   WHERE m.kind IN ('error', 'rage_click', 'dead_click') AND s.tracked_user_id IS NOT NULL
     AND ${KEY} IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
   ON CONFLICT (organization_id, kind, key, project_id, tracked_user_id) DO UPDATE
     SET last_created_at = GREATEST(u.last_created_at, EXCLUDED.last_created_at)`;

/** Sessions of the statement that got a (new) tracked user and have signals. */
const IDENTIFIED = `(SELECT n.* FROM new_sessions n JOIN old_sessions o ON o.id = n.id
  WHERE n.tracked_user_id IS NOT NULL AND n.tracked_user_id IS DISTINCT FROM o.tracked_user_id
    AND n.error_count + n.rage_click_count + n.dead_click_count > 0)`;

const UP = [
  // Fires for ingest's session upsert too (ON CONFLICT DO UPDATE); a statement that identifies
  // nobody returns after one look at its one-row transition tables. This statement's own markers
  // are credited by 0017's trigger as well: both upsert the same rows.
  `CREATE FUNCTION signal_users_identified() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NOT EXISTS (SELECT FROM ${IDENTIFIED} AS i) THEN
       RETURN NULL;
     END IF;
     INSERT INTO signal_users AS u
       (organization_id, kind, key, project_id, tracked_user_id, last_created_at)
     ${userRows(IDENTIFIED)};
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_identified_signal_users AFTER UPDATE ON sessions
   REFERENCING OLD TABLE AS old_sessions NEW TABLE AS new_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION signal_users_identified()`,
  `INSERT INTO signal_users AS u
     (organization_id, kind, key, project_id, tracked_user_id, last_created_at)
   ${
    userRows("(SELECT * FROM sessions WHERE error_count + rage_click_count + dead_click_count > 0)")
  }`,
];
