// Ingest's part of the app's metrics (core/service/metrics.ts): each answer and the bytes it read,
// the decode workers' queue and each large body's time in them.
import type { MiddlewareHandler } from "hono";
import type { Metrics } from "@/core/service/metrics.ts";
import type { ApiEnv } from "@/api/env.ts";
import type { DecodePool } from "./decode_pool.ts";

/** Counts each ingest answer (errors included: it runs around them) and the body bytes read. */
export function meteredIngest(metrics: Metrics): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST") return await next(); // a CORS preflight is not an ingest
    await next();
    metrics.ingestAnswered(c.res.status, c.var.wireBytes ?? 0);
  };
}

/** `pool` with each decode timed, and its queue read at each scrape (0 without workers). */
export function meteredPool(pool: DecodePool | null, metrics: Metrics): DecodePool | null {
  metrics.gauge(
    "playhead_ingest_decode_jobs",
    "Large ingest bodies in the decode workers (the app's), waiting or decoding.",
    ["state"],
    () => [[{ state: "queued" }, pool?.queued ?? 0], [{ state: "decoding" }, pool?.decoding ?? 0]],
  );
  if (!pool) return null;
  return Object.create(pool, {
    decode: {
      value: async (...args: Parameters<DecodePool["decode"]>) => {
        const started = performance.now();
        try {
          return await pool.decode(...args);
        } finally {
          metrics.decodeJob((performance.now() - started) / 1000);
        }
      },
    },
  });
}
