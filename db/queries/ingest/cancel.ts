// The SDK's cancel: a session of the key's project deleted (its batches and markers go with it,
// by the sessions' delete trigger).
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

/** Deletes a session of the key's project (SDK-side cancel); null when the key is unknown. */
export async function cancelSession(
  db: Kysely<Database>,
  projectKey: string,
  externalId: string,
): Promise<{ projectId: string; deleted: number } | null> {
  const { rows } = await sql<{ projectId: string; deleted: number }>`
    WITH project AS (SELECT id FROM projects WHERE key = ${projectKey}),
    deleted AS (
      DELETE FROM sessions USING project
      WHERE sessions.project_id = project.id AND sessions.external_id = ${externalId}
      RETURNING sessions.id
    )
    SELECT project.id AS "projectId", (SELECT count(*) FROM deleted)::integer AS deleted
    FROM project
  `.execute(db);
  return rows[0] ?? null;
}
