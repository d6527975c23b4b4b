// How long a request may wait on the database (docs/decisions.md "Reliability"): past its budget it
// answers 503 `unavailable` with Retry-After instead of hanging, and errors that mean "the database
// cannot be reached" become the same 503 rather than a 500. The budget is per surface: ingest keeps
// a short one, the SDK retries 5xx with backoff. The budget counts from the body being in (reading
// it is bounded by the body timeout, 408), and past it the request's remaining queries are not run.
import type { Context, MiddlewareHandler } from "hono";
import { errorBody, unavailable } from "../core/errors.ts";
import { abandonRequestWork } from "../db/connection_shares.ts";
import { RETRY_AFTER_SECONDS } from "../db/unavailable.ts";
import { log } from "../log.ts";
import type { ApiEnv } from "./env.ts";

export { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "../db/unavailable.ts";

export function databaseBudget(ms: number): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const clock = budgetClock(ms);
    c.set("databaseBudget", clock);
    try {
      const done = next().then(() => "done" as const);
      const outcome = await Promise.race([done, clock.expired]);
      if (outcome === "expired") {
        done.catch(() => {}); // answered already; a later failure has no one to tell
        // Its next query fails at once (db/connection_shares.ts) instead of running for nobody.
        abandonRequestWork();
        log.warn("db:budget:exceeded", { path: c.req.path, budgetMs: ms });
        c.res = unavailableResponse(c);
      }
    } finally {
      clock.dispose();
    }
  };
}

/** A request's database budget; reading its body does not count (that is the body timeout's). */
export interface BudgetClock {
  expired: Promise<"expired">;
  /** Stops the clock while the body arrives (api/validate.ts). */
  pause(): void;
  /** Starts the whole budget again once the body is in. */
  resume(): void;
  dispose(): void;
}

function budgetClock(ms: number): BudgetClock {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const { promise, resolve } = Promise.withResolvers<"expired">();
  const start = () => {
    clearTimeout(timer);
    timer = setTimeout(() => resolve("expired"), ms);
  };
  start();
  return {
    expired: promise,
    pause: () => clearTimeout(timer),
    resume: start,
    dispose: () => clearTimeout(timer),
  };
}

function unavailableResponse(c: Context): Response {
  const error = unavailable("the database is unavailable; retry shortly", RETRY_AFTER_SECONDS);
  return c.json(errorBody(error), 503, { "Retry-After": String(RETRY_AFTER_SECONDS) });
}
