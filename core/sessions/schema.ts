// Wire schemas of the sessions endpoints' query strings (docs/decisions.md "Common API rules",
// "Sessions"): unknown enum values and out-of-range limits are 400, never a silent fallback.
import { z } from "zod";
import { RECORDING_REASONS } from "@/core/projects/recording_limits.ts";
import { VITAL_NAMES, VITAL_RATINGS } from "@/core/ingest/web_vitals.ts";
import { clickedCellField } from "@/core/heatmaps/clicked_cell.ts";

const idList = z.string().max(4000).transform((text) =>
  text.split(",").map((id) => id.trim()).filter(Boolean)
).transform((ids) => ids.length ? ids : undefined);

const ms = z.string().regex(/^\d{1,12}$/, "milliseconds, an integer").transform(Number);
/** A comma list of signal kinds, each at most once. */
const signalList = z.string().max(100).transform((text) =>
  text.split(",").map((kind) => kind.trim()).filter(Boolean)
  /** A comma list of signal kinds, each at most once. */
).pipe(z.array(z.enum(["error", "rage_click", "dead_click", "network_error"])))
  .transform((kinds) => kinds.length ? [...new Set(kinds)] : undefined);
/** The web vitals' `name:rating` pairs (`lcp:poor`): lcp, cls, inp, fcp, ttfb × ratings. */
export const VITAL_FILTERS = VITAL_NAMES.flatMap((name) =>
  VITAL_RATINGS.map((rating) => `${name}:${rating}` as const)
);
const vitalList = z.string().max(400).transform((text) =>
  text.split(",").map((pair) => pair.trim().toLowerCase()).filter(Boolean)
).pipe(z.array(z.enum(VITAL_FILTERS)))
  .transform((pairs) => pairs.length ? [...new Set(pairs)] : undefined);
/** A comma list of recording reasons, each at most once. */
const reasonList = z.string().max(100).transform((text) =>
  text.split(",").map((kind) => kind.trim()).filter(Boolean)
).pipe(z.array(z.enum(RECORDING_REASONS)))
  .transform((kinds) => kinds.length ? [...new Set(kinds)] : undefined);
const optionalText = (max: number) =>
  z.string().max(max).transform((text) => text.trim() || undefined).optional();

export const DEVICES = ["desktop", "mobile", "tablet"] as const;

const filterFields = {
  search: z.string().max(200).optional(),
  searchUsers: z.enum(["true", "false"]).transform((v) => v === "true").optional().meta({
    description: "`true`: `search` also matches the tracked user, as `user` does",
  }),
  projectIds: idList.optional(),
  range: z.enum(["today", "7d", "30d", "all", "retention"]).default("all"),
  user: optionalText(200).meta({
    description: "case-insensitive substring of the tracked user's externalId, name or any " +
      "trait value",
  }),
  visited: optionalText(2048).meta({
    description: "a pathname the session visited at any time; `*` matches any characters " +
      "(`/checkout*`)",
  }),
  minDuration: ms.optional().meta({ description: "ms, inclusive" }),
  maxDuration: ms.optional().meta({ description: "ms, inclusive" }),
  signals: signalList.optional().meta({
    description: "comma list of `error`, `rage_click`, `dead_click`, `network_error` (a request " +
      "answered 5xx or not at all): at least one of each",
  }),
  minRequestMs: ms.optional().meta({
    description: "ms, inclusive: the session's slowest recorded request took at least this long",
  }),
  vital: vitalList.optional().meta({
    description: "comma list of `name:rating` (names `lcp`, `cls`, `inp`, `fcp`, `ttfb`; ratings " +
      "`good`, `needs_improvement`, `poor`): a page of the session had any of them",
  }),
  browser: optionalText(100).meta({ description: "as in items' `browser`, e.g. `Chrome`" }),
  os: optionalText(100).meta({ description: "as in items' `os`, e.g. `macOS`" }),
  device: z.enum(DEVICES).optional(),
  element: optionalText(1000).meta({
    description: "a rage or dead click on this selector (of the click kinds in `signals`, if " +
      "any), as in /api/insights",
  }),
  error: optionalText(1000).meta({
    description: "an error of this group (the `fingerprint` of /api/insights' errors)",
  }),
  clicked: optionalText(1000).meta({
    description: "clicked this element (a selector as /api/heatmaps names elements); each item " +
      "has `openAtMs`",
  }),
  clickedCell: clickedCellField,
  reason: reasonList.optional().meta({
    description: "comma list of `sampled`, `error`, `rage_click`, `dead_click`, `manual`: " +
      "sessions recorded for any of them",
  }),
  hasComments: z.enum(["true", "false"]).transform((v) => v === "true").optional().meta({
    description: "`true`: only sessions with a comment; `false`: only those without",
  }),
  comment: optionalText(2000).meta({
    description: "a comment on the session contains this text (case-insensitive)",
  }),
  pinned: z.enum(["true", "false"]).transform((v) => v === "true").optional().meta({
    description: "`true`: only pinned sessions (kept past retention); `false`: only the others",
  }),
};

export const sessionFilterQuery = z.object(filterFields);

export const sessionListQuery = z.object({
  ...filterFields,
  sort: z.enum(["date", "duration", "signals"]).default("date").meta({
    description: "`signals`: errors + rage clicks + dead clicks, most first with `desc`",
  }),
  sortDir: z.enum(["desc", "asc"]).default("desc"),
  cursor: z.string().min(1).max(512).optional(),
  limit: z.string().regex(/^\d{1,3}$/, "an integer from 1 to 100").transform(Number)
    .pipe(z.number().int().min(1).max(100)).default(20),
});

export const markersQuery = z.object({
  kind: z.enum([
    "url",
    "identity",
    "error",
    "rage_click",
    "dead_click",
    "recording_paused",
    "network_error",
    "web_vital",
  ]).optional(),
});

export type SessionFilterInput = z.output<typeof sessionFilterQuery>;
export type SessionListInput = z.output<typeof sessionListQuery>;
export type SessionRange = SessionFilterInput["range"];
export type MarkerKind = NonNullable<z.output<typeof markersQuery>["kind"]>;

const offset = z.string().regex(/^\d{1,12}$/, "a whole number of ms from the session start")
  .transform(Number);

/**
 * `after`: a batch id from an earlier answer, to follow an open session (docs/decisions.md
 * "Replay"); `from` / `before`: a moment (ms from the session start) to open a replay at (the same
 * section).
 */
export const eventsQuery = z.object({
  after: z.string().regex(/^\d{1,15}$/, "a batch id from an earlier answer").optional(),
  from: offset.optional(),
  before: offset.optional(),
});

// Answers (core/sessions/list.ts, core/sessions/detail.ts), strict so an undocumented field fails
// tests/service/openapi_test.ts.
const iso = z.iso.datetime();
const traits = z.record(z.string(), z.unknown());

/** Why a session was recorded (docs/decisions.md "Capture control"). */
const recordingFields = {
  recordingReason: z.enum(RECORDING_REASONS).meta({
    description: "`sampled`: from its start; else the trigger that started it",
  }),
  triggeredAt: z.number().int().nullable().meta({
    description: "epoch ms of the trigger; null when sampled",
  }),
};

export const sessionListItem = z.strictObject({
  id: z.string(),
  externalId: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  url: z.string().nullable(),
  duration: z.number().int().meta({ description: "ms" }),
  eventCount: z.number().int(),
  createdAt: iso,
  startedAt: iso.meta({ description: "the session's first event; the list's date sort" }),
  trackedUserId: z.string().nullable(),
  userId: z.string().nullable().meta({ description: "the tracked user's externalId" }),
  userDisplayName: z.string().nullable(),
  userTraits: traits.nullable(),
  errorCount: z.number().int().meta({ description: "console errors (uncaught ones included)" }),
  rageClickCount: z.number().int(),
  deadClickCount: z.number().int(),
  networkErrorCount: z.number().int().meta({
    description: "recorded requests answered 5xx or not at all",
  }),
  browser: z.string().nullable().meta({ description: "from the user agent, e.g. `Chrome`" }),
  os: z.string().nullable(),
  device: z.enum(DEVICES).nullable(),
  ...recordingFields,
  commentCount: z.number().int(),
  pinned: z.boolean().meta({ description: "kept past its project's retention" }),
  openAtMs: z.number().int().nullable().optional().meta({
    description: "with `clicked` or `clickedCell`: ms from the start to the first such click " +
      "(the replay's `?t=`); null: not known yet",
  }),
});

export type SessionListItem = z.output<typeof sessionListItem>;

/** POST and DELETE /api/sessions/:id/pin. */
export const sessionPin = z.strictObject({
  id: z.string(),
  pinned: z.boolean(),
  pinnedAt: iso.nullable(),
});
export type SessionPinView = z.output<typeof sessionPin>;

export const sessionListPage = z.strictObject({
  data: z.array(sessionListItem),
  nextCursor: z.string().nullable(),
});
export type SessionListPage = z.output<typeof sessionListPage>;

export const sessionSummary = z.strictObject({
  totalSessions: z.number().int(),
  totalDuration: z.number().int(),
  avgDuration: z.number().int(),
  /** Sessions still open or that ended since 00:00 UTC today. */
  activeToday: z.number().int(),
});
export type SessionSummary = z.output<typeof sessionSummary>;

export const marker = z.strictObject({
  timestamp: z.number().int().meta({ description: "epoch ms" }),
  kind: z.string(),
  data: z.unknown(),
});
export type MarkerOut = z.output<typeof marker>;

export const sessionDetail = z.strictObject({
  id: z.string(),
  externalId: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  url: z.string().nullable(),
  referrer: z.string().nullable(),
  userAgent: z.string().nullable(),
  browser: z.string().nullable().meta({ description: "from the user agent, e.g. `Chrome`" }),
  os: z.string().nullable(),
  device: z.enum(DEVICES).nullable(),
  screenWidth: z.number().int().nullable(),
  screenHeight: z.number().int().nullable(),
  language: z.string().nullable(),
  createdAt: iso,
  startedAt: iso,
  endedAt: iso.nullable(),
  duration: z.number().int(),
  eventCount: z.number().int(),
  trackedUserId: z.string().nullable(),
  trackedUser: z.strictObject({
    id: z.string(),
    externalId: z.string(),
    displayName: z.string().nullable(),
    traits,
  }).nullable(),
  ...recordingFields,
  pinned: z.boolean().meta({ description: "kept past its project's retention" }),
  markers: z.array(marker),
});
export type SessionDetail = z.output<typeof sessionDetail>;

export const sessionMarkers = z.strictObject({ markers: z.array(marker) });

export const eventBatch = z.strictObject({
  id: z.string(),
  firstTimestamp: z.number().int(),
  lastTimestamp: z.number().int(),
  eventCount: z.number().int(),
  data: z.base64().meta({ description: "base64 of the stored gzip bytes (a JSON event array)" }),
});
export type EventBatchOut = z.output<typeof eventBatch>;

export const sessionEvents = z.strictObject({
  batches: z.array(eventBatch),
  nextCursor: z.null(),
});

/** One recorded request (GET /api/sessions/:id/network; docs/decisions.md "Network capture"). */
export const networkRequestOut = z.strictObject({
  index: z.number().int().meta({
    description: "its place in the recording: GET /api/sessions/:id/network/:index has its bodies",
  }),
  offsetMs: z.number().int().meta({ description: "ms from the session's start to the request's" }),
  method: z.string(),
  url: z.string().meta({ description: "secret query parameters already replaced by the SDK" }),
  status: z.number().int().meta({ description: "0: no answer (a network failure)" }),
  durationMs: z.number().int(),
  requestSize: z.number().int().nullable(),
  responseSize: z.number().int().nullable(),
  requestHeaders: z.record(z.string(), z.string()).optional(),
  responseHeaders: z.record(z.string(), z.string()).optional(),
  hasRequestBody: z.boolean(),
  hasResponseBody: z.boolean(),
});
export type NetworkRequestOut = z.output<typeof networkRequestOut>;
/** One request with the bodies the project kept (GET /api/sessions/:id/network/:index). */
export const networkRequestDetail = networkRequestOut.extend({
  requestBody: z.string().optional(),
  responseBody: z.string().optional(),
});
export type NetworkRequestDetail = z.output<typeof networkRequestDetail>;
export const sessionNetwork = z.strictObject({
  data: z.array(networkRequestOut).meta({ description: "in time order, without bodies" }),
  truncated: z.boolean().meta({
    description: "true: more requests than one answer lists (5000, or 16 MiB of JSON)",
  }),
});
export type SessionNetwork = z.output<typeof sessionNetwork>;
