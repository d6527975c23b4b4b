// Capture options: their documented defaults and strict validation.
// Invalid options must fail loudly, so every problem is reported, not just the first.

import { PUBLIC_KEY_PATTERN } from "@/core/projects/keys.ts";
import {
  globWildcards,
  MAX_BUFFER_MS,
  MAX_MIN_DURATION_MS,
  MAX_URL_GLOB_WILDCARDS,
  MAX_URL_RULES,
  MIN_BUFFER_MS,
  RECORDING_TRIGGERS,
} from "@/core/projects/recording_limits.ts";
import type { ResolvedOptions } from "./types.ts";

/** The defaults of every option but apiKey and endpoint (the options table of sdk/README.md). */
export const DEFAULT_OPTIONS: Omit<ResolvedOptions, "apiKey" | "endpoint"> = {
  flushInterval: 60_000,
  batchSize: 2_000,
  recordConsole: true,
  privacyMaskInputs: true,
  privacyMaskAttribute: "data-service-mask",
  privacyBlockAttribute: "data-service-block",
  privacyBlockMedia: false,
  autoStart: true,
  hold: false,
  // The recording settings' narrowing options: these defaults leave the project's settings as
  // they are (sdk/control/settings.ts).
  sampleRate: 1,
  minDurationMs: 0,
  urlBlock: [],
  urlAllow: [],
  triggers: [...RECORDING_TRIGGERS],
  bufferMs: MAX_BUFFER_MS,
};

/** The client buffer ceiling (oldest dropped first); a larger batchSize could never trigger. */
export const MAX_BUFFERED_EVENTS = 10_000;

const ATTRIBUTE_PATTERN = /^[a-zA-Z_:][-a-zA-Z0-9_:.]*$/;
const BOOLEAN_KEYS = [
  "recordConsole",
  "privacyMaskInputs",
  "privacyBlockMedia",
  "autoStart",
  "hold",
] as const;
const KNOWN_KEYS = new Set(["apiKey", "endpoint", ...Object.keys(DEFAULT_OPTIONS)]);

export type OptionsResult =
  | { ok: true; options: ResolvedOptions }
  | { ok: false; errors: string[] };

/** Applies defaults and validates; returns every problem found. */
export function resolveOptions(input: unknown): OptionsResult {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, errors: ["options must be an object"] };
  }
  const raw = input as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(raw)) {
    // A typo such as `flushIntervall` would otherwise be silently ignored.
    if (!KNOWN_KEYS.has(key)) errors.push(`unknown option "${key}"`);
  }
  const merged = { ...DEFAULT_OPTIONS, ...withoutUndefined(raw) } as Record<string, unknown>;

  if (typeof merged.apiKey !== "string" || !PUBLIC_KEY_PATTERN.test(merged.apiKey)) {
    errors.push('apiKey must be the project key: "sp_" followed by 32 lowercase hex characters');
  }
  const endpoint = normaliseEndpoint(merged.endpoint);
  if (endpoint === null) {
    errors.push("endpoint must be an absolute http(s) URL, e.g. https://playhead.example.com");
  } else {
    merged.endpoint = endpoint;
  }
  if (!isIntegerIn(merged.flushInterval, 1, 86_400_000)) {
    errors.push("flushInterval must be an integer number of milliseconds between 1 and 86400000");
  }
  if (!isIntegerIn(merged.batchSize, 1, MAX_BUFFERED_EVENTS)) {
    errors.push(`batchSize must be an integer between 1 and ${MAX_BUFFERED_EVENTS}`);
  }
  for (const key of BOOLEAN_KEYS) {
    if (typeof merged[key] !== "boolean") errors.push(`${key} must be true or false`);
  }
  for (const key of ["privacyMaskAttribute", "privacyBlockAttribute"] as const) {
    const value = merged[key];
    if (typeof value !== "string" || !ATTRIBUTE_PATTERN.test(value)) {
      errors.push(`${key} must be a valid HTML attribute name`);
    }
  }
  errors.push(...narrowingErrors(merged));
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, options: merged as unknown as ResolvedOptions };
}

/** The recording settings' options, with the bounds of the project's own settings. */
function narrowingErrors(o: Record<string, unknown>): string[] {
  const list = (v: unknown, ok: (x: unknown) => boolean) =>
    Array.isArray(v) && v.length <= MAX_URL_RULES && v.every(ok);
  const glob = (g: unknown) =>
    typeof g === "string" && /^\/\S*$/.test(g) && globWildcards(g) <= MAX_URL_GLOB_WILDCARDS;
  const globs = `up to ${MAX_URL_RULES} path globs starting with /, each with at most ` +
    `${MAX_URL_GLOB_WILDCARDS} wildcards (* or **)`;
  const checks: [boolean, string][] = [
    [isIn(o.sampleRate, 0, 1), "sampleRate: a number from 0 to 1"],
    [isIntegerIn(o.minDurationMs, 0, MAX_MIN_DURATION_MS), "minDurationMs: 0 to 60000"],
    [isIntegerIn(o.bufferMs, MIN_BUFFER_MS, MAX_BUFFER_MS), "bufferMs: 30000 to 120000"],
    [list(o.urlBlock, glob), `urlBlock: ${globs}`],
    [list(o.urlAllow, glob), `urlAllow: ${globs}`],
    [
      list(o.triggers, (t) => (RECORDING_TRIGGERS as readonly unknown[]).includes(t)),
      "triggers: error, rage_click, dead_click",
    ],
  ];
  return checks.filter(([ok]) => !ok).map(([, message]) => message);
}

function isIn(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && value >= min && value <= max;
}

function withoutUndefined(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
}

function isIntegerIn(value: unknown, min: number, max: number): boolean {
  return isIn(value, min, max) && Number.isInteger(value);
}

/** Returns the endpoint without trailing slashes, or null when it is not an http(s) URL. */
function normaliseEndpoint(value: unknown): string | null {
  if (typeof value !== "string") return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.search || url.hash) return null;
  return (url.origin + url.pathname).replace(/\/+$/, "");
}
