// What an erasure leaves of its sessions in the signal rollups (migrations 0017, 0021, 0032): the
// sessions' delete trigger lowers the counts, but a key's latest text and stack (`last_text`,
// `last_stack`) may still be an erased session's. The keys the erased sessions' signals count in
// are read before the delete; after it, each such row takes its text and stack again from the
// latest marker left, and a row no session counts any more goes, with the users who met only it.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;
export type SignalKey = { project_id: string; kind: string; created_day: string; key: string };

// Rollup keys a statement re-reads: four parameters each.
const KEY_CHUNK = 500;

/** The rollup keys the signals of these sessions count in (before they are deleted). */
export async function signalKeysOf(trx: Db, sessionIds: string[]): Promise<SignalKey[]> {
  if (!sessionIds.length) return [];
  const { rows } = await sql<SignalKey>`
    SELECT DISTINCT s.project_id, m.kind,
      to_char(m.session_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS created_day,
      signal_key(m.kind, m.data) AS key
    FROM sessions s JOIN markers m ON m.session_id = s.id AND m.session_created_at = s.created_at
    WHERE s.id IN (${sql.join(sessionIds.map((id) => sql`${id}`))})
      AND m.kind IN ('error', 'rage_click', 'dead_click')
  `.execute(trx);
  return rows.filter((r) => r.key !== null);
}

/** After the delete: the rows of `keys` retake their latest text and stack, or go. */
export async function retakeSignalRows(trx: Db, organizationId: string, keys: SignalKey[]) {
  for (let i = 0; i < keys.length; i += KEY_CHUNK) {
    const values = sql.join(
      keys.slice(i, i + KEY_CHUNK).map((k) =>
        sql`(${k.project_id}, ${k.kind}, ${k.created_day}::date, ${k.key})`
      ),
    );
    await sql`
      UPDATE signal_rollups r SET last_text = l.text, last_stack = l.stack
      FROM (VALUES ${values}) AS t(project_id, kind, created_day, key)
      LEFT JOIN LATERAL (
        SELECT COALESCE(m.data ->> 'text', m.data ->> 'message') AS text,
          m.data ->> 'stack' AS stack
        FROM markers m JOIN sessions s ON s.id = m.session_id
        WHERE s.project_id = t.project_id AND m.kind = t.kind
          AND m.session_created_at >= t.created_day::timestamp AT TIME ZONE 'UTC'
          AND m.session_created_at < (t.created_day + 1)::timestamp AT TIME ZONE 'UTC'
          AND signal_key(m.kind, m.data) = t.key
        ORDER BY m.ts DESC LIMIT 1
      ) AS l ON true
      WHERE r.organization_id = ${organizationId} AND r.project_id = t.project_id
        AND r.kind = t.kind AND r.created_day = t.created_day AND r.key = t.key
    `.execute(trx);
  }
  if (!keys.length) return;
  const projects = [...new Set(keys.map((k) => k.project_id))];
  await sql`DELETE FROM signal_rollups WHERE organization_id = ${organizationId}
    AND project_id IN (${sql.join(projects.map((p) => sql`${p}`))}) AND sessions <= 0`
    .execute(trx);
  // Who met a key that no rollup counts any more (its text was the erased sessions' alone).
  await sql`DELETE FROM signal_users u WHERE u.organization_id = ${organizationId}
    AND u.project_id IN (${sql.join(projects.map((p) => sql`${p}`))})
    AND NOT EXISTS (SELECT 1 FROM signal_rollups r WHERE r.organization_id = u.organization_id
      AND r.kind = u.kind AND r.key = u.key AND r.project_id = u.project_id)`.execute(trx);
}
