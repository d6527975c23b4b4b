// Projects with their session counts; key regeneration is one UPDATE, so the old key stops
// working the moment the new one is stored, with no grace window.
import { createId } from "@paralleldrive/cuid2";
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

/** A project's recording settings (migration 0024). */
export interface RecordingColumns {
  recording_sample_rate: number;
  recording_min_duration_ms: number;
  recording_url_block: string[];
  recording_url_allow: string[];
  recording_triggers: string[];
  recording_buffer_ms: number;
}

/** A project's network settings (migration 0027). */
export interface NetworkColumns {
  network_enabled: boolean;
  network_headers: string[];
  network_body_urls: string[];
  network_vitals: boolean;
}

const RECORDING_COLUMNS = [
  "recording_sample_rate",
  "recording_min_duration_ms",
  "recording_url_block",
  "recording_url_allow",
  "recording_triggers",
  "recording_buffer_ms",
  "network_enabled",
  "network_headers",
  "network_body_urls",
  "network_vitals",
] as const;

export interface ProjectRow extends RecordingColumns, NetworkColumns {
  id: string;
  organization_id: string;
  name: string;
  key: string;
  display_name_trait_key: string | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
  session_count: number;
  retention_days: number;
}

function projectsWithCounts(db: Kysely<Database>) {
  return db.selectFrom("projects").selectAll("projects").select(
    sql<number>`(SELECT count(*) FROM sessions s WHERE s.project_id = projects.id)::int`
      .as("session_count"),
  ) as SelectQueryBuilder<Database, "projects", ProjectRow>;
}

/** Projects of the given organizations, newest first. */
export async function listProjects(
  db: Kysely<Database>,
  organizationIds: string[],
): Promise<ProjectRow[]> {
  if (!organizationIds.length) return [];
  return await projectsWithCounts(db).where("organization_id", "in", organizationIds)
    .orderBy("created_at", "desc").orderBy("id", "desc").execute();
}

export async function findProject(db: Kysely<Database>, id: string): Promise<ProjectRow | null> {
  return await projectsWithCounts(db).where("id", "=", id).executeTakeFirst() ?? null;
}

export async function createProject(
  db: Kysely<Database>,
  input: { organizationId: string; name: string; key: string },
): Promise<string> {
  const id = createId();
  await db.insertInto("projects")
    .values({ id, organization_id: input.organizationId, name: input.name, key: input.key })
    .execute();
  return id;
}

export async function updateProject(
  db: Kysely<Database>,
  id: string,
  changes:
    & {
      name?: string;
      key?: string;
      display_name_trait_key?: string | null;
      retention_days?: number;
    }
    & Partial<RecordingColumns>
    & Partial<NetworkColumns>,
): Promise<void> {
  await db.updateTable("projects").set({ ...changes, updated_at: new Date() })
    .where("id", "=", id).execute();
}

/** The project's unpinned sessions created before `cutoff`: what its retention deletes next. */
export async function countSessionsBefore(
  db: Kysely<Database>,
  projectId: string,
  cutoff: Date,
): Promise<number> {
  const row = await db.selectFrom("sessions").select((eb) => eb.fn.countAll<string>().as("n"))
    .where("project_id", "=", projectId).where("created_at", "<", cutoff)
    .where("pinned_at", "is", null).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteProject(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("projects").where("id", "=", id).execute();
}

/**
 * What ingest reads of the project with this public key before its body (the unique index on key
 * answers it): whether it records requests; null when no project has the key.
 */
export async function keyProject(
  db: Kysely<Database>,
  key: string,
): Promise<{ network_enabled: boolean } | null> {
  return await db.selectFrom("projects").select("network_enabled").where("key", "=", key)
    .executeTakeFirst() ?? null;
}

/** The recording and network settings of the project with this public key, or null. */
export async function recordingByKey(
  db: Kysely<Database>,
  key: string,
): Promise<(RecordingColumns & NetworkColumns) | null> {
  return await db.selectFrom("projects").select(RECORDING_COLUMNS).where("key", "=", key)
    .executeTakeFirst() ?? null;
}
