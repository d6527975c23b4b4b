// Wire schemas of the tracked-user endpoints (DECISIONS "Common API rules", "Tracked users"):
// unknown enum values and out-of-range numbers are 400, never a silent fallback.
import { z } from "zod";
import { STATUSES } from "../core/tracked_user_status.ts";

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

const override = (max: number) => z.string().trim().min(1).max(max).nullable().optional();

export const displayNameBody = z.object({
  customName: override(120),
  traitKey: override(60),
}).strict().refine((b) => b.customName !== undefined || b.traitKey !== undefined, {
  message: "give customName, traitKey or both",
});

// Answers (core/tracked_user_*.ts), strict so an undocumented field fails tests/openapi_test.ts.
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
  activeTime7d: ms,
  createdAt: iso,
});

export const trackedUserPage = z.strictObject({
  data: z.array(trackedUserItem),
  nextCursor: z.string().nullable(),
});

export const trackedUserSummary = z.strictObject({
  total: z.number().int(),
  onlineNow: z.number().int(),
  active24h: z.number().int(),
  newThisWeek: z.number().int(),
});

export const trackedUserDetail = z.strictObject({
  ...trackedUserItem.shape,
  customName: z.string().nullable(),
  displayNameTraitKey: z.string().nullable(),
});

export const trackedUserStatus = z.strictObject({
  online: z.boolean(),
  lastEventAt: iso.nullable(),
});

const window = { range: z.enum(["6h", "24h", "7d"]), from: iso, to: iso };

export const trackedUserTimeline = z.strictObject({
  ...window,
  sessions: z.array(z.strictObject({
    id: z.string(),
    externalId: z.string(),
    startedAt: iso,
    endedAt: iso.nullable(),
    duration: ms,
    url: z.string().nullable(),
    periods: z.array(z.strictObject({
      url: z.string().nullable(),
      pathname: z.string().nullable(),
      startedAt: iso,
      endedAt: iso,
      duration: ms,
    })),
  })),
  pages: z.array(z.string()).meta({ description: "distinct pathnames, in order of first visit" }),
});

export const trackedUserActivity = z.strictObject({
  ...window,
  bucketMs: ms,
  buckets: z.array(z.strictObject({
    t: iso,
    total: z.number().int(),
    byPage: z.array(z.strictObject({ pathname: z.string(), count: z.number().int() })),
  })),
  pageDistribution: z.array(z.strictObject({
    pathname: z.string(),
    duration: ms,
    share: z.number().min(0).max(1),
    visits: z.number().int(),
  })),
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
