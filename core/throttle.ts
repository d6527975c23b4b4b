// Throttles for unauthenticated endpoints that cost something per call (a mail sent, a row
// written): per client address and, where one client could exhaust a shared resource such as the
// operator's mail account, globally. Over a limit → 429 `rate_limited` with `retryAfter`.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { countHit } from "@/db/queries/rate_limits.ts";
import { log } from "@/log.ts";
import { rateLimited } from "./errors.ts";

export interface Limit {
  /** e.g. `otp:addr:203.0.113.7` or `otp:all`. */
  bucket: string;
  max: number;
  windowSeconds: number;
}

/** Counts one call against every limit; throws rate_limited when any of them is exceeded. */
export async function throttle(
  db: Kysely<Database>,
  limits: Limit[],
  context: { tag: string; requestId?: string },
): Promise<void> {
  for (const limit of limits) {
    const { count, secondsLeft } = await countHit(db, limit.bucket, limit.windowSeconds);
    if (count > limit.max) {
      log.warn(`${context.tag}:throttled`, {
        requestId: context.requestId,
        bucket: limit.bucket,
        max: limit.max,
        retryAfter: secondsLeft,
      });
      throw rateLimited("too many requests; try again later", secondsLeft);
    }
  }
}
