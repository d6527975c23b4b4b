// Reads a project's stored recording settings in their wire shape, for the settings page's test.
import type { Kysely } from "kysely";
import { recordingOf } from "@/core/projects/recording.ts";
import type { Database } from "@/db/schema.ts";

export async function getProjectRecording(db: Kysely<Database>, projectId: string) {
  return recordingOf(
    await db.selectFrom("projects").selectAll().where("id", "=", projectId)
      .executeTakeFirstOrThrow(),
  );
}
