// Wire schemas of the tracked-user endpoints (docs/decisions.md "Common API rules", "Tracked
// users"): unknown enum values and out-of-range numbers are 400, never a silent fallback.
import { z } from "zod";
import { STATUSES } from "./status.ts";

const commaList = z.string().max(4000).transform((text) =>
  text.split(",").map((item) => item.trim()).filter(Boolean)
);
const intIn = (min: number, max: number) =>
  z.string().regex(/^\d{1,3}$/, `an integer from ${min} to ${max}`).transform(Number)
    .pipe(z.number().int().min(min).max(max));

const limit = intIn(1, 100).default(20);
const cursor = z.string().min(1).max(512).optional();
const range = z.enum(["6h", "24h", "7d"]).default("24h");

export const trackedUserListQuery = z.object({
  search: z.string().max(200).optional(),
  projectIds: commaList.transform((ids) => ids.length ? ids : undefined).optional(),
  statuses: commaList.pipe(z.array(z.enum(STATUSES)))
    .transform((list) => list.length ? [...new Set(list)] : undefined).optional(),
  sort: z.enum(["last-seen", "sessions", "active-time", "newest"]).default("last-seen"),
  sortDir: z.enum(["desc", "asc"]).default("desc"),
  cursor,
  limit,
});

export const timelineQuery = z.object({ range });
export const activityQuery = z.object({ range, pageLimit: intIn(1, 100).default(5) });
export const userSessionsQuery = z.object({ cursor, limit });
// The list page's heartbeat: the statuses of the rows it shows, in one request.
export const heartbeatQuery = z.object({
  ids: commaList.pipe(z.array(z.string().max(64)).min(1).max(100))
    .transform((ids) => [...new Set(ids)]),
});

const override = (max: number) => z.string().trim().min(1).max(max).nullable().optional();

export const displayNameBody = z.object({
  customName: override(120),
  traitKey: override(60),
}).strict().refine((b) => b.customName !== undefined || b.traitKey !== undefined, {
  message: "give customName, traitKey or both",
});

// The user page's form sets both overrides at once: an empty field clears its override.
const clearable = (max: number) =>
  z.string().trim().max(max).transform((value) => value === "" ? null : value);
export const displayNameForm = z.object({ customName: clearable(120), traitKey: clearable(60) });

// Answers (core/tracked_users/*.ts), strict so an undocumented field fails tests/service/openapi_test.ts.
const iso = z.iso.datetime();
const ms = z.number().int().meta({ description: "ms" });

export const trackedUserItem = z.strictObject({
  id: z.string(),
  externalId: z.string(),
  displayName: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  traits: z.record(z.string(), z.unknown()),
  sessionCount: z.number().int(),
  lastEventAt: iso.nullable(),
  status: z.enum(STATUSES),
  // Sum of the durations of the user's sessions. Retention keeps 7 days of sessions, so this is
  // their last 7 days (plus sessions between turning 7 days old and the next daily sweep): a
  // rollup the list can sort on, where an exact sliding window would mean aggregating every session.
  activeTime7d: ms,
  createdAt: iso,
});

export const trackedUserPage = z.strictObject({
  data: z.array(trackedUserItem),
  nextCursor: z.string().nullable(),
});

export const trackedUserSummary = z.strictObject({
  total: z.number().int(),
  onlineNow: z.number().int(), // latest session end within LIVE_WITHIN_MS
  active24h: z.number().int(), // latest session end within 24 h (online users included)
  newThisWeek: z.number().int(), // first identified within 7 days (rolling, not the calendar week)
});

// The overrides as set, so a settings form can show and clear them.
export const trackedUserDetail = z.strictObject({
  ...trackedUserItem.shape,
  customName: z.string().nullable(),
  displayNameTraitKey: z.string().nullable(),
});

export const trackedUserStatus = z.strictObject({
  online: z.boolean(),
  lastEventAt: iso.nullable(),
});

export const trackedUserHeartbeat = z.strictObject({
  data: z.array(z.strictObject({ id: z.string(), ...trackedUserStatus.shape })).meta({
    description: "one entry per asked id of the active organization; other ids are left out",
  }),
});

const window = { range: z.enum(["6h", "24h", "7d"]), from: iso, to: iso };

const period = z.strictObject({
  url: z.string().nullable(),
  pathname: z.string().nullable(),
  startedAt: iso,
  endedAt: iso,
  duration: ms,
});

const timelineSession = z.strictObject({
  id: z.string(),
  externalId: z.string(),
  startedAt: iso,
  endedAt: iso.nullable(),
  duration: ms,
  url: z.string().nullable(),
  periods: z.array(period),
});

export const trackedUserTimeline = z.strictObject({
  ...window,
  sessions: z.array(timelineSession),
  pages: z.array(z.string()).meta({ description: "distinct pathnames, in order of first visit" }),
  // Added fields: the answer is bounded (core/tracked_users/timeline.ts says how).
  totalSessions: z.number().int().meta({ description: "sessions in the window, returned or not" }),
  truncated: z.boolean().meta({
    description: "true when sessions (the oldest) or periods (a session's last) were left out",
  }),
});

const pageShare = z.strictObject({
  pathname: z.string(),
  duration: ms,
  share: z.number().min(0).max(1),
  visits: z.number().int(),
});

export const trackedUserActivity = z.strictObject({
  ...window,
  bucketMs: ms,
  buckets: z.array(z.strictObject({
    t: iso,
    total: z.number().int(),
    byPage: z.array(z.strictObject({ pathname: z.string(), count: z.number().int() })),
  })),
  pageDistribution: z.array(pageShare),
  summary: z.strictObject({
    sessionCount: z.number().int(),
    totalActiveTime: ms,
    avgSessionDuration: ms,
    totalEvents: z.number().int(),
    uniquePages: z.number().int(),
    topPage: z.string().nullable(),
    firstEventAt: iso.nullable(),
    lastEventAt: iso.nullable(),
  }),
});

export type TrackedUserListInput = z.output<typeof trackedUserListQuery>;
export type TrackedUserItem = z.output<typeof trackedUserItem>;
export type TrackedUserPage = z.output<typeof trackedUserPage>;
export type TrackedUserSummary = z.output<typeof trackedUserSummary>;
export type TrackedUserDetail = z.output<typeof trackedUserDetail>;
export type TrackedUserStatusAnswer = z.output<typeof trackedUserStatus>;
export type TrackedUserHeartbeat = z.output<typeof trackedUserHeartbeat>;
export type Period = z.output<typeof period>;
export type TimelineSession = z.output<typeof timelineSession>;
export type TrackedUserTimeline = z.output<typeof trackedUserTimeline>;
export type PageShare = z.output<typeof pageShare>;
export type TrackedUserActivity = z.output<typeof trackedUserActivity>;

/** `POST /api/tracked-users/:id/erase`'s answer: what went, and when the erasure ran. */
export const trackedUserErasure = z.strictObject({
  sessions: z.number().int(),
  batches: z.number().int(),
  keysDestroyed: z.number().int(),
  inlineBytes: z.number().int(),
  startedAt: z.string(),
  endedAt: z.string(),
});
export type TrackedUserErasure = z.output<typeof trackedUserErasure>;
