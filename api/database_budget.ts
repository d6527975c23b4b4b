// How long a request may wait on the database (issue 12 #1, #8, #11): past its budget it answers
// 503 `unavailable` with Retry-After instead of hanging, and errors that mean "the database cannot
// be reached" become the same 503 rather than a 500. The budget is per surface: ingest keeps a
// short one, the SDK retries 5xx with backoff.
import type { Context, MiddlewareHandler } from "hono";
import { errorBody, unavailable } from "../core/errors.ts";
import { isDriverWriteFault } from "../db/driver_fault.ts";
import { log } from "../log.ts";

export const RETRY_AFTER_SECONDS = 5;

export function databaseBudget(ms: number): MiddlewareHandler {
  return async (c, next) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<"expired">((resolve) => {
      timer = setTimeout(() => resolve("expired"), ms);
    });
    try {
      const outcome = await Promise.race([next().then(() => "done" as const), expired]);
      if (outcome === "expired") {
        log.warn("db:budget:exceeded", { path: c.req.path, budgetMs: ms });
        c.res = unavailableResponse(c);
      }
    } finally {
      clearTimeout(timer);
    }
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
