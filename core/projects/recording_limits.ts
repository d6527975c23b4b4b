// The bounds and defaults of a project's recording settings, shared by the API's schema, the
// database's checks (migration 0024) and the capture SDK, which imports this file, so it stays
// free of dependencies.

/** Events that start recording a session sampling left out. */
export const RECORDING_TRIGGERS = ["error", "rage_click", "dead_click"] as const;
export type RecordingTrigger = typeof RECORDING_TRIGGERS[number];

/** Why a session was recorded: from its start, or by a trigger (`manual`: `Playhead.trigger()`). */
export const RECORDING_REASONS = ["sampled", ...RECORDING_TRIGGERS, "manual"] as const;
export type RecordingReason = typeof RECORDING_REASONS[number];

export const MAX_MIN_DURATION_MS = 60_000;
export const MIN_BUFFER_MS = 30_000;
export const MAX_BUFFER_MS = 120_000;
/** A triggered recording starts with a full snapshot at least this long before its trigger. */
export const PRE_TRIGGER_MS = 30_000;
export const MAX_URL_RULES = 50;
export const MAX_URL_GLOB_CHARS = 200;
/** Stars a glob may hold, a run of them counting once (`**` is one; `?` costs nothing). */
export const MAX_URL_GLOB_WILDCARDS = 8;

/** A glob's wildcards as MAX_URL_GLOB_WILDCARDS counts them: each run of `*`. */
export function globWildcards(glob: string): number {
  return glob.match(/\*+/g)?.length ?? 0;
}

export interface RecordingSettings {
  /** The share of sessions recorded from their start (0..1), decided from the session id. */
  sampleRate: number;
  /** A visit shorter than this sends nothing (0..60,000 ms). */
  minDurationMs: number;
  /** Path globs of pages never recorded. */
  urlBlock: string[];
  /** Path globs of the only pages recorded; empty: every page. */
  urlAllow: string[];
  triggers: RecordingTrigger[];
  /** How much a left-out session's buffer keeps beyond PRE_TRIGGER_MS (30,000..120,000 ms). */
  bufferMs: number;
}

/** Today's behaviour: every session recorded whole, from its start. */
export const DEFAULT_RECORDING: RecordingSettings = {
  sampleRate: 1,
  minDurationMs: 0,
  urlBlock: [],
  urlAllow: [],
  triggers: [],
  bufferMs: 60_000,
};
