// The project's recording settings as the SDK applies them: read from GET /api/sdk/config before
// anything is sent, remembered in localStorage as the last known ones, and narrowed (never
// widened) by the page's own init options. When they cannot be read, the last known settings
// apply, else the defaults (everything recorded); a key the service does not know records nothing.

import {
  DEFAULT_RECORDING,
  type RecordingSettings,
  type RecordingTrigger,
} from "@/core/projects/recording_limits.ts";
import type { NetworkSettings } from "@/core/projects/network_limits.ts";
import { loadNetwork } from "@/sdk/network/loader.ts";
import type { KeyValueStorage } from "@/sdk/session_id.ts";
import { safeGet } from "@/sdk/session_id.ts";
import type { ResolvedOptions } from "@/sdk/types.ts";

/** The settings in force: allow lists stay separate, since each one narrows. */
export interface CaptureSettings {
  sampleRate: number;
  minDurationMs: number;
  urlBlock: string[];
  urlAllow: string[][];
  triggers: RecordingTrigger[];
  bufferMs: number;
}

/** How long the SDK waits for its settings before it falls back. */
export const CONFIG_TIMEOUT_MS = 5_000;
const STORAGE_KEY = "playhead:settings:";

/** Applies init options to the project's settings: each may only narrow. */
export function narrow(project: RecordingSettings, options: ResolvedOptions): CaptureSettings {
  return {
    sampleRate: Math.min(project.sampleRate, options.sampleRate),
    minDurationMs: Math.max(project.minDurationMs, options.minDurationMs),
    urlBlock: [...project.urlBlock, ...options.urlBlock],
    urlAllow: [project.urlAllow, options.urlAllow],
    triggers: project.triggers.filter((t) => options.triggers.includes(t)),
    bufferMs: Math.min(project.bufferMs, options.bufferMs),
  };
}

/** The last settings read for this key, or the defaults. */
export function lastKnown(storage: KeyValueStorage | null, apiKey: string): RecordingSettings {
  try {
    return validSettings(JSON.parse(safeGet(storage, STORAGE_KEY + apiKey) ?? "null")) ??
      DEFAULT_RECORDING;
  } catch {
    return DEFAULT_RECORDING;
  }
}

/**
 * The project's settings from the service; null when it does not know the key (401). Settings
 * that record requests load the network bundle (sdk/network/loader.ts).
 */
export async function fetchSettings(
  options: ResolvedOptions,
  storage: KeyValueStorage | null,
  fetcher: typeof fetch = fetch,
): Promise<RecordingSettings | null> {
  const settings = await readSettings(options, storage, fetcher);
  loadNetwork((settings as { network?: NetworkSettings } | null)?.network, options);
  return settings;
}

async function readSettings(
  options: ResolvedOptions,
  storage: KeyValueStorage | null,
  fetcher: typeof fetch = fetch,
): Promise<RecordingSettings | null> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), CONFIG_TIMEOUT_MS);
  try {
    const res = await fetcher(`${options.endpoint}/api/sdk/config`, {
      headers: { "x-service-public-key": options.apiKey },
      credentials: "omit",
      mode: "cors",
      signal: abort.signal,
    });
    if (res.status === 401) return null;
    const settings = res.ok ? validSettings(await res.json()) : null;
    if (!settings) return lastKnown(storage, options.apiKey);
    try {
      storage?.setItem(STORAGE_KEY + options.apiKey, JSON.stringify(settings));
    } catch {
      // Storage full or denied: the next page asks again anyway.
    }
    return settings;
  } catch {
    return lastKnown(storage, options.apiKey);
  } finally {
    clearTimeout(timer);
  }
}

/** The settings when `value` has their shape, else null (an odd answer is not trusted). */
function validSettings(value: unknown): RecordingSettings | null {
  const v = (value ?? {}) as Record<string, unknown>;
  const ok = ["sampleRate", "minDurationMs", "bufferMs"].every((k) => typeof v[k] === "number") &&
    ["urlBlock", "urlAllow", "triggers"].every((k) =>
      Array.isArray(v[k]) && (v[k] as unknown[]).every((s) => typeof s === "string")
    );
  return ok ? value as RecordingSettings : null;
}

/** localStorage, or null where the page may not use it. */
export function browserLocalStorage(): KeyValueStorage | null {
  try {
    const s = globalThis.localStorage;
    s.getItem(STORAGE_KEY);
    return s;
  } catch {
    return null;
  }
}
