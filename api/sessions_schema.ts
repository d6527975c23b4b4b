// Wire schemas of the sessions endpoints' query strings (DECISIONS "Common API rules",
// "Sessions"): unknown enum values and out-of-range limits are 400, never a silent fallback.
import { z } from "zod";

const idList = z.string().max(4000).transform((text) =>
  text.split(",").map((id) => id.trim()).filter(Boolean)
).transform((ids) => ids.length ? ids : undefined);

const filterFields = {
  search: z.string().max(200).optional(),
  projectIds: idList.optional(),
  range: z.enum(["today", "7d", "30d", "all", "retention"]).default("all"),
};

export const sessionFilterQuery = z.object(filterFields);

export const sessionListQuery = z.object({
  ...filterFields,
  sort: z.enum(["date", "duration"]).default("date"),
  sortDir: z.enum(["desc", "asc"]).default("desc"),
  cursor: z.string().min(1).max(512).optional(),
  limit: z.string().regex(/^\d{1,3}$/, "an integer from 1 to 100").transform(Number)
    .pipe(z.number().int().min(1).max(100)).default(20),
});

export const markersQuery = z.object({
  kind: z.enum(["url", "identity"]).optional(),
});
