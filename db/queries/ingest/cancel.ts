// The SDK's cancel: a session of the key's project erased as a dashboard delete is
// (db/queries/sessions/erase.ts: tombstone, data key destroyed, rows deleted), in one transaction.
// The tombstone is written even when the session does not exist yet, so a batch still on its way
// cannot create it afterwards.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { eraseSessions } from "@/db/queries/sessions/erase.ts";

/** Erases a session of the key's project (SDK-side cancel); null when the key is unknown. */
export async function cancelSession(
  db: Kysely<Database>,
  projectKey: string,
  externalId: string,
): Promise<{ projectId: string; deleted: number } | null> {
  return await db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom("projects").select("id").where("key", "=", projectKey)
      .executeTakeFirst();
    if (!project) return null;
    const erased = await eraseSessions(trx, { projectId: project.id, externalId });
    await sql`INSERT INTO erased_sessions (project_id, external_id)
      VALUES (${project.id}, ${externalId}) ON CONFLICT (project_id, external_id) DO NOTHING`
      .execute(trx);
    return { projectId: project.id, deleted: erased.sessions };
  });
}

/** Whether a batch for this session of the key's project is refused: the session was erased. */
export async function erasedSessionOfKey(
  db: Kysely<Database>,
  projectKey: string,
  externalId: string,
): Promise<boolean> {
  const row = await db.selectFrom("erased_sessions")
    .innerJoin("projects", "projects.id", "erased_sessions.project_id")
    .select("erased_sessions.project_id")
    .where("projects.key", "=", projectKey).where("erased_sessions.external_id", "=", externalId)
    .executeTakeFirst();
  return !!row;
}
