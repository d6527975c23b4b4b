// A project's recording and network settings between its row and the wire (docs/decisions.md "Capture
// control"), and what the SDK reads with its key: GET /api/sdk/config.
import type { Db } from "@/db/client.ts";
import {
  type NetworkColumns,
  recordingByKey,
  type RecordingColumns,
} from "@/db/queries/projects/projects.ts";
import { authError } from "@/core/errors.ts";
import type { RecordingTrigger } from "./recording_limits.ts";
import type { NetworkSettingsView, RecordingSettingsView, SdkConfigView } from "./schema.ts";

export function recordingOf(row: RecordingColumns): RecordingSettingsView {
  return {
    sampleRate: row.recording_sample_rate,
    minDurationMs: row.recording_min_duration_ms,
    urlBlock: row.recording_url_block,
    urlAllow: row.recording_url_allow,
    triggers: row.recording_triggers as RecordingTrigger[],
    bufferMs: row.recording_buffer_ms,
  };
}

/** The columns of the settings given (a PATCH changes only those). */
export function recordingColumns(r: Partial<RecordingSettingsView>): Partial<RecordingColumns> {
  const columns: Partial<RecordingColumns> = {
    recording_sample_rate: r.sampleRate,
    recording_min_duration_ms: r.minDurationMs,
    recording_url_block: r.urlBlock,
    recording_url_allow: r.urlAllow,
    recording_triggers: r.triggers,
    recording_buffer_ms: r.bufferMs,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

export function networkOf(row: NetworkColumns): NetworkSettingsView {
  return {
    enabled: row.network_enabled,
    headers: row.network_headers,
    bodyUrls: row.network_body_urls,
    vitals: row.network_vitals,
  };
}

/** The network columns of the settings given (a PATCH changes only those). */
export function networkColumns(n: Partial<NetworkSettingsView>): Partial<NetworkColumns> {
  const columns: Partial<NetworkColumns> = {
    network_enabled: n.enabled,
    network_headers: n.headers,
    network_body_urls: n.bodyUrls,
    network_vitals: n.vitals,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

/** The settings of the key's project, for the SDK; `auth` when no project has the key. */
export async function recordingForKey(
  deps: { db: Db },
  key: string,
): Promise<SdkConfigView> {
  const row = await recordingByKey(deps.db.kysely, key);
  if (!row) throw authError("unknown public key");
  return { ...recordingOf(row), network: networkOf(row) };
}
