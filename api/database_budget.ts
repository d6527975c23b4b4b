// How long a request may wait on the database (issue 12 #1, #8, #11): past its budget it answers
// 503 `unavailable` with Retry-After instead of hanging, and errors that mean "the database cannot
// be reached" become the same 503 rather than a 500. The budget is per surface: ingest keeps a
// short one, the SDK retries 5xx with backoff. The budget counts from the body being in (reading
// it is bounded by the body timeout, 408), and past it the request's remaining queries are not run.
import type { Context, MiddlewareHandler } from "hono";
import { errorBody, unavailable } from "../core/errors.ts";
import { isDriverWriteFault } from "../db/driver_fault.ts";
import { abandonRequestWork } from "../db/connection_shares.ts";
import { log } from "../log.ts";
import type { ApiEnv } from "./env.ts";

export const RETRY_AFTER_SECONDS = 5;

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

// Connection-level failures of postgres.js and PostgreSQL: refused, reset, closed, shut down.
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up or shutting down)
  "57014", // query_canceled (statement_timeout)
  "SHARE_BUSY", // the request class's connections stayed busy (db/connection_shares.ts)
  "WORK_ABANDONED", // the request was already answered 503
  "08000",
  "08003",
  "08006",
]);

/** Whether an error means the database could not be reached or gave up on the statement. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return true;
  // The driver's null-socket fault also reaches a query's caller when it writes to a connection
  // that closed under it (seen on the second and third outage of one process).
  if (isDriverWriteFault(error)) return true;
  return error instanceof Error &&
    /ECONNREFUSED|connection (?:refused|closed)/i.test(error.message);
}
