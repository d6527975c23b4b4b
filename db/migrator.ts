// Applies the numbered migrations in db/migrations/ in order and reports the schema's level.
import type { Kysely } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import * as m0001 from "./migrations/0001_initial.ts";
import * as m0003 from "./migrations/0003_sessions_api.ts";
import * as m0004 from "./migrations/0004_tracked_users_api.ts";
import * as m0005 from "./migrations/0005_webauthn_challenges.ts";
import * as m0006 from "./migrations/0006_oauth_states.ts";
import * as m0007 from "./migrations/0007_perf_rollups.ts";
import * as m0008 from "./migrations/0008_reliability_limits.ts";
import * as m0009 from "./migrations/0009_activity_covering_indexes.ts";
import * as m0010 from "./migrations/0010_session_activity_summary.ts";
import * as m0011 from "./migrations/0011_activity_covering_index.ts";
import * as m0012 from "./migrations/0012_day_partitions.ts";
import * as m0013 from "./migrations/0013_sessions_by_start.ts";
import * as m0014 from "./migrations/0014_session_signals.ts";
import * as m0015 from "./migrations/0015_batch_snapshots.ts";
import * as m0016 from "./migrations/0016_object_store.ts";
import * as m0017 from "./migrations/0017_signal_rollups.ts";
import * as m0018 from "./migrations/0018_user_search_values.ts";
import * as m0019 from "./migrations/0019_bounded_index_rows.ts";
import * as m0020 from "./migrations/0020_signal_users_identified.ts";
import * as m0021 from "./migrations/0021_error_groups.ts";
import * as m0022 from "./migrations/0022_session_shares.ts";
import * as m0023 from "./migrations/0023_session_comments.ts";
import * as m0024 from "./migrations/0024_project_recording_settings.ts";
import * as m0025 from "./migrations/0025_session_recording_reason.ts";
import * as m0026 from "./migrations/0026_bounded_error_groups.ts";
import * as m0027 from "./migrations/0027_project_network_settings.ts";
import * as m0028 from "./migrations/0028_session_network_summary.ts";
import * as m0029 from "./migrations/0029_bounded_network_errors_index.ts";
import * as m0030 from "./migrations/0030_bounded_session_times.ts";
import * as m0031 from "./migrations/0031_page_sequences.ts";
import * as m0032 from "./migrations/0032_signal_hours_and_stacks.ts";
import * as m0033 from "./migrations/0033_session_data_keys.ts";
import * as m0034 from "./migrations/0034_audit_log.ts";
import * as m0035 from "./migrations/0035_erasure_tombstones.ts";
import * as m0036 from "./migrations/0036_retention_and_pins.ts";
import * as m0037 from "./migrations/0037_saved_searches.ts";
import * as m0038 from "./migrations/0038_alerts.ts";
import * as m0039 from "./migrations/0039_alert_signal_minutes.ts";
import * as m0040 from "./migrations/0040_heatmaps.ts";
import * as m0041 from "./migrations/0041_heatmap_click_times.ts";

// Listed statically (not read from disk) so the service also runs where there is no file system,
// such as Deno Deploy. Append new migrations here; never edit one that has landed. (No 0002:
// see db/migrations/README.md.)
const MIGRATIONS: Record<string, Migration> = {
  "0001_initial": m0001,
  "0003_sessions_api": m0003,
  "0004_tracked_users_api": m0004,
  "0005_webauthn_challenges": m0005,
  "0006_oauth_states": m0006,
  "0007_perf_rollups": m0007,
  "0008_reliability_limits": m0008,
  "0009_activity_covering_indexes": m0009,
  "0010_session_activity_summary": m0010,
  "0011_activity_covering_index": m0011,
  "0012_day_partitions": m0012,
  "0013_sessions_by_start": m0013,
  "0014_session_signals": m0014,
  "0015_batch_snapshots": m0015,
  "0016_object_store": m0016,
  "0017_signal_rollups": m0017,
  "0018_user_search_values": m0018,
  "0019_bounded_index_rows": m0019,
  "0020_signal_users_identified": m0020,
  "0021_error_groups": m0021,
  "0022_session_shares": m0022,
  "0023_session_comments": m0023,
  "0024_project_recording_settings": m0024,
  "0025_session_recording_reason": m0025,
  "0026_bounded_error_groups": m0026,
  "0027_project_network_settings": m0027,
  "0028_session_network_summary": m0028,
  "0029_bounded_network_errors_index": m0029,
  "0030_bounded_session_times": m0030,
  "0031_page_sequences": m0031,
  "0032_signal_hours_and_stacks": m0032,
  "0033_session_data_keys": m0033,
  "0034_audit_log": m0034,
  "0035_erasure_tombstones": m0035,
  "0036_retention_and_pins": m0036,
  "0037_saved_searches": m0037,
  "0038_alerts": m0038,
  "0039_alert_signal_minutes": m0039,
  "0040_heatmaps": m0040,
  "0041_heatmap_click_times": m0041,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

/** Every migration the code knows, in order (test templates are keyed by the whole list). */
export const MIGRATION_NAMES: string[] = Object.keys(MIGRATIONS).sort();

/** The name of the newest migration the code knows. */
export const LATEST_MIGRATION = Object.keys(MIGRATIONS).sort().at(-1)!;

// deno-lint-ignore no-explicit-any
function migrator(db: Kysely<any>): Migrator {
  // Numbers are handed out per workstream and land in any order (0004 before 0003), so a database
  // that already has a later migration still takes an earlier one that arrives afterwards.
  return new Migrator({ db, provider, allowUnorderedMigrations: true });
}

/** Applies every pending migration; throws with the failing migration's error. */
// deno-lint-ignore no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((r) => r.migrationName);
}

/** The newest applied migration, or null for an empty database. */
// deno-lint-ignore no-explicit-any
export async function migrationLevel(db: Kysely<any>): Promise<string | null> {
  const all = await migrator(db).getMigrations();
  return all.filter((m) => m.executedAt).map((m) => m.name).sort().at(-1) ?? null;
}

/** Known migrations not applied yet (an earlier number can be pending below the newest applied). */
// deno-lint-ignore no-explicit-any
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const all = await migrator(db).getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}
