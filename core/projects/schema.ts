// Wire schemas of /api/projects (docs/decisions.md "Projects and keys"): requests as the handlers
// parse them, and the Project answer of core/projects/projects.ts (strict, so an undocumented field
// fails tests).
import { z } from "zod";
import { nameSchema as name } from "@/core/schema.ts";
import { PUBLIC_KEY_PATTERN } from "./keys.ts";
import {
  DEFAULT_RECORDING,
  globWildcards,
  MAX_BUFFER_MS,
  MAX_MIN_DURATION_MS,
  MAX_URL_GLOB_CHARS,
  MAX_URL_GLOB_WILDCARDS,
  MAX_URL_RULES,
  MIN_BUFFER_MS,
  RECORDING_TRIGGERS,
} from "./recording_limits.ts";
import { DEFAULT_NETWORK, MAX_HEADER_NAME_CHARS, MAX_KEPT_HEADERS } from "./network_limits.ts";

export const projectListQuery = z.object({ organizationId: z.string().min(1).optional() });
export const projectCreateBody = z.object({ name, organizationId: z.string().min(1) });

/**
 * A URL path glob: `*` any characters but `/`, `**` any characters, `?` one character; at most
 * MAX_URL_GLOB_WILDCARDS runs of stars.
 */
const urlGlob = z.string().trim().min(1).max(MAX_URL_GLOB_CHARS)
  .regex(/^\/\S*$/, "a path starting with / and holding no spaces, e.g. /admin/**")
  .refine((glob) => globWildcards(glob) <= MAX_URL_GLOB_WILDCARDS, {
    message: `at most ${MAX_URL_GLOB_WILDCARDS} wildcards (* or **) per glob`,
  });
const globList = z.array(urlGlob).max(MAX_URL_RULES)
  .transform((globs) => [...new Set(globs)]);

/** A project's recording settings (docs/decisions.md "Capture control"). */
export const recordingSettings = z.strictObject({
  sampleRate: z.number().min(0).max(1).meta({ description: "share of sessions recorded, 0..1" }),
  minDurationMs: z.number().int().min(0).max(MAX_MIN_DURATION_MS),
  urlBlock: globList.meta({ description: "path globs of pages never recorded" }),
  urlAllow: globList.meta({ description: "path globs of the only pages recorded; empty: all" }),
  triggers: z.array(z.enum(RECORDING_TRIGGERS)).max(RECORDING_TRIGGERS.length)
    .transform((kinds) => [...new Set(kinds)]),
  bufferMs: z.number().int().min(MIN_BUFFER_MS).max(MAX_BUFFER_MS),
});
export type RecordingSettingsView = z.output<typeof recordingSettings>;
export const DEFAULT_RECORDING_SETTINGS: RecordingSettingsView = DEFAULT_RECORDING;

/** A header name as HTTP spells one (RFC 9110 token), kept lowercase. */
const headerName = z.string().trim().toLowerCase().min(1).max(MAX_HEADER_NAME_CHARS)
  .regex(/^[a-z0-9!#$%&'*+.^_`|~-]+$/, "a header name, e.g. content-type");

/** A project's network settings (docs/decisions.md "Network capture"). */
export const networkSettings = z.strictObject({
  enabled: z.boolean().meta({ description: "record each fetch and XMLHttpRequest" }),
  headers: z.array(headerName).max(MAX_KEPT_HEADERS).transform((names) => [...new Set(names)])
    .meta({
      description: "header names kept; authorization, cookie, set-cookie, x-service-public-key " +
        "and names holding token, secret, key, auth, session, jwt, pass, pwd, cred, sign, dpop, " +
        "bearer, cookie, ticket, saml or state are never kept",
    }),
  bodyUrls: globList.meta({ description: "path globs of requests whose bodies are recorded" }),
  vitals: z.boolean().meta({ description: "LCP, CLS, INP, FCP and TTFB (with `enabled`)" }),
});
export type NetworkSettingsView = z.output<typeof networkSettings>;
export const DEFAULT_NETWORK_SETTINGS: NetworkSettingsView = DEFAULT_NETWORK;

/** GET /api/sdk/config: the recording settings and, beside them, the network ones. */
export const sdkConfig = recordingSettings.extend({ network: networkSettings });
export type SdkConfigView = z.output<typeof sdkConfig>;

/** A number typed in a form field (empty is not zero). */
const formNumber = z.string().trim().min(1, "required").pipe(z.coerce.number());
/** One glob per line. */
const formLines = z.string().max(20_000).default("").transform((text) =>
  text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean)
);
/**
 * The project settings page's form, in the units people type (a percentage, seconds, one glob
 * per line, a checkbox per trigger), checked by the API's own schema.
 */
export const projectRecordingForm = z.object({
  samplePercent: formNumber,
  minDurationSeconds: formNumber,
  urlBlock: formLines,
  urlAllow: formLines,
  trigger_error: z.literal("on").optional(),
  trigger_rage_click: z.literal("on").optional(),
  trigger_dead_click: z.literal("on").optional(),
  bufferSeconds: formNumber,
}).transform((f) => ({
  sampleRate: f.samplePercent / 100,
  minDurationMs: Math.round(f.minDurationSeconds * 1000),
  urlBlock: f.urlBlock,
  urlAllow: f.urlAllow,
  triggers: RECORDING_TRIGGERS.filter((t) => f[`trigger_${t}`] === "on"),
  bufferMs: Math.round(f.bufferSeconds * 1000),
})).pipe(recordingSettings);

/** The settings page's network form: a checkbox each, header names and globs one per line. */
export const projectNetworkForm = z.object({
  enabled: z.literal("on").optional(),
  vitals: z.literal("on").optional(),
  headers: formLines,
  bodyUrls: formLines,
}).transform((f) => ({
  enabled: f.enabled === "on",
  vitals: f.vitals === "on",
  headers: f.headers,
  bodyUrls: f.bodyUrls,
})).pipe(networkSettings);

/** Days the daily cleanup keeps a project's sessions (docs/decisions.md "Retention per project"). */
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 365;
/** What a project keeps unless its settings say otherwise (migration 0036's default). */
export const DEFAULT_RETENTION_DAYS = 7;
export const retentionDays = z.number().int().min(MIN_RETENTION_DAYS).max(MAX_RETENTION_DAYS)
  .meta({ description: "days the daily cleanup keeps the project's unpinned sessions, 1–365" });

/**
 * PATCH /api/projects/:id: a new name, recording or network settings, retention (those given
 * change).
 */
export const projectPatchBody = z.strictObject({
  name: name.optional(),
  recording: recordingSettings.partial().optional(),
  network: networkSettings.partial().optional(),
  retentionDays: retentionDays.optional(),
}).refine(
  (b) => Object.values(b).some((v) => v !== undefined),
  { message: "give a name, recording settings, network settings, retentionDays, or several" },
);
/** The settings page's retention field. */
export const projectRetentionForm = z.object({
  retentionDays: z.string().trim().min(1, "required").pipe(z.coerce.number()).pipe(retentionDays),
});
export const projectDeleteBody = z.object({
  confirmation: z.string().meta({ description: 'exactly "delete project"' }),
});
// Dashboard forms name the project in a hidden field (the API has it in the path) and create
// projects in the active organization.
export const projectForm = z.object({ projectId: z.string().min(1) });
export const projectNameForm = projectCreateBody.pick({ name: true });
export const projectRenameForm = projectForm.extend({ name });
export const projectDeleteForm = projectForm.extend(projectDeleteBody.shape);
export const traitKeyBody = z.object({ traitKey: z.string().trim().min(1).max(60).nullable() });
// The settings form's field: empty clears the project's default trait key.
export const projectTraitKeyForm = projectForm.extend({
  traitKey: z.string().trim().max(60).transform((key) => key === "" ? null : key),
});

export const project = z.strictObject({
  id: z.string(),
  name: z.string(),
  maskedKey: z.string().meta({ description: "sp_ + first 4 hex + 24 bullets + last 4 hex" }),
  organizationId: z.string(),
  sessionCount: z.number().int(),
  lastUsedAt: z.iso.datetime().nullable(),
  displayNameTraitKey: z.string().nullable(),
  recording: recordingSettings,
  network: networkSettings,
  retentionDays,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ProjectView = z.output<typeof project>;

/** PATCH /api/projects/:id's answer: with `retentionDays` given, what the next cleanup deletes. */
export const projectPatched = project.extend({
  sessionsToDelete: z.number().int().min(0).optional().meta({
    description: "with retentionDays: the project's unpinned sessions already past it, which " +
      "the next daily cleanup deletes",
  }),
});
export type ProjectPatchedView = z.output<typeof projectPatched>;

export const projectKey = z.strictObject({ key: z.string().regex(PUBLIC_KEY_PATTERN) });
export type ProjectKey = z.output<typeof projectKey>;
