// Errors that mean "the database cannot be reached", whichever surface meets them: the API answers
// them 503 (http/middleware.ts), the pages a 503 page (routes/_500.tsx), both with Retry-After;
// a request past its database budget (http/database_budget.ts) is one of them.
import { isDriverWriteFault } from "./driver_fault.ts";

/** A request waited its whole database budget: the database (or the pool) does not answer. */
export class DatabaseBudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`no answer from the database within ${budgetMs} ms`);
    this.name = "DatabaseBudgetExceeded";
  }
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
  if (error instanceof DatabaseBudgetExceeded) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return true;
  // The driver's null-socket fault also reaches a query's caller when it writes to a connection
  // that closed under it (seen on the second and third outage of one process).
  if (isDriverWriteFault(error)) return true;
  return error instanceof Error &&
    /ECONNREFUSED|connection (?:refused|closed)/i.test(error.message);
}
