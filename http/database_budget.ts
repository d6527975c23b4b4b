// How long a request may wait on the database (docs/decisions.md "Reliability"), for the API, the
// pages and the health probe alike: past its budget a request answers 503 `unavailable` with
// Retry-After instead of hanging, and its remaining queries are refused instead of run. Reading a
// body does not count: that is the body timeout's (408).
import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "@/config.ts";
import { errorBody, unavailable } from "@/core/errors.ts";
import { abandonRequestWork } from "@/db/connection_shares.ts";
import { DatabaseBudgetExceeded, isDatabaseUnavailable } from "@/db/unavailable.ts";
import { log } from "@/log.ts";

/** What a 503 for an unavailable database asks the client to wait, in seconds. */
export const RETRY_AFTER_SECONDS = 5;

/** The Retry-After of an error that means the database is unavailable; null for any other. */
export function databaseRetryAfter(error: unknown): number | null {
  return isDatabaseUnavailable(error) ? RETRY_AFTER_SECONDS : null;
}

/** A request's database budget, running from its start. */
export interface DatabaseBudget {
  readonly ms: number;
  /** Settles when the budget has run out. */
  readonly expired: Promise<"expired">;
  /** Stops the clock while the body arrives (http/body.ts `readWire`). */
  pause(): void;
  /** Starts the whole budget again once the body is in. */
  resume(): void;
  dispose(): void;
}

export function startDatabaseBudget(ms: number): DatabaseBudget {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const { promise, resolve } = Promise.withResolvers<"expired">();
  const start = () => {
    clearTimeout(timer);
    timer = setTimeout(() => resolve("expired"), ms);
  };
  start();
  return {
    ms,
    expired: promise,
    pause: () => clearTimeout(timer),
    resume: start,
    dispose: () => clearTimeout(timer),
  };
}

/**
 * The work's result, or DatabaseBudgetExceeded once the budget has run out: during an outage the
 * driver's queue can hold a query far longer than its connect timeout. The work is abandoned, not
 * stopped: what it already started runs on, its further queries fail at once
 * (db/connection_shares.ts) instead of running for nobody, and the connection share it holds goes
 * back. The budget ends with the work.
 */
export async function withinDatabaseBudget<T>(
  budget: DatabaseBudget,
  work: () => Promise<T>,
): Promise<T> {
  const done = work();
  const outcome = await Promise.race([done.then((value) => ({ value })), budget.expired])
    .finally(() => budget.dispose());
  if (outcome !== "expired") return outcome.value;
  done.catch(() => {}); // answered already; a later failure has no one to tell
  abandonRequestWork();
  throw new DatabaseBudgetExceeded(budget.ms);
}

/** What a page may spend: the dashboard's budget, plus the body timeout for a form post. */
export function pageDatabaseBudgetMs(config: Config, method: string): number {
  // A form post's body is read inside the page, so its budget leaves room for that first.
  const bodyless = method === "GET" || method === "HEAD" || method === "OPTIONS";
  return config.database.dashboardBudgetMs + (bodyless ? 0 : config.http.bodyTimeoutMs);
}

/** An API request's budget (`ms`), in `c.var.databaseBudget` for the body reader to pause. */
export function databaseBudget(
  ms: number,
): MiddlewareHandler<{ Variables: { databaseBudget: DatabaseBudget } }> {
  return async (c, next) => {
    const budget = startDatabaseBudget(ms);
    c.set("databaseBudget", budget);
    try {
      await withinDatabaseBudget(budget, next);
    } catch (error) {
      if (!(error instanceof DatabaseBudgetExceeded)) throw error;
      log.warn("db:budget:exceeded", { path: c.req.path, budgetMs: ms });
      c.res = unavailableResponse(c);
    }
  };
}

function unavailableResponse(c: Context): Response {
  const error = unavailable("the database is unavailable; retry shortly", RETRY_AFTER_SECONDS);
  return c.json(errorBody(error), 503, { "Retry-After": String(RETRY_AFTER_SECONDS) });
}
