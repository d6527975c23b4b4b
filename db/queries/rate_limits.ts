// Fixed-window throttle counters in PostgreSQL, so every instance shares them.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

/**
 * Counts one hit of `bucket` in the current window of `windowSeconds`; returns the window's count
 * so far and the seconds until the window ends.
 */
export async function countHit(
  db: Kysely<Database>,
  bucket: string,
  windowSeconds: number,
): Promise<{ count: number; secondsLeft: number }> {
  const { rows } = await sql<{ count: number; seconds_left: number }>`
    INSERT INTO rate_limit_counters AS c (bucket, window_start, count)
    VALUES (
      ${bucket},
      to_timestamp(floor(extract(epoch FROM now()) / ${windowSeconds}) * ${windowSeconds}),
      1
    )
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = c.count + 1
    RETURNING count,
      ceil(extract(epoch FROM c.window_start) + ${windowSeconds} - extract(epoch FROM now()))::integer
        AS seconds_left`.execute(db);
  return { count: rows[0].count, secondsLeft: Math.max(1, rows[0].seconds_left) };
}
