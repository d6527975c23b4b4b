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
