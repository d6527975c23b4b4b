// Cross-cutting middleware of every non-static response: request ids, the security headers
// below and one error renderer for typed errors (docs/decisions.md "Common API rules").
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import { AppError, errorBody, unavailable, validation } from "@/core/errors.ts";
import { errorHeaders } from "./errors.ts";
import { isDatabaseUnavailable } from "@/db/unavailable.ts";
import { RETRY_AFTER_SECONDS } from "./database_budget.ts";
import { log } from "@/log.ts";
import { type RequestClass, runAs, ShareBusy, WorkAbandoned } from "@/db/connection_shares.ts";
import { captureException } from "@/monitoring.ts";

export const SECURITY_HEADERS: Record<string, string> = {
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/**
 * Sets exactly SECURITY_HEADERS on every non-static response, whatever produced it (hono's other
 * defaults off). A header the response already has stands: the replay page's stricter `no-referrer`.
 */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    xFrameOptions: SECURITY_HEADERS["X-Frame-Options"],
    xContentTypeOptions: SECURITY_HEADERS["X-Content-Type-Options"],
    referrerPolicy: SECURITY_HEADERS["Referrer-Policy"],
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
    overwrite: false,
  });
}

/**
 * `Server-Timing: app;dur=<ms>`: the time from the request reaching the app's middleware to its
 * answer's head (a stream's body comes after). Browsers' devtools show it beside the network time;
 * the query benchmark reports it as the server-side latency its targets are set in
 * (docs/decisions.md "Performance budgets"). Not hono/timing: it names the metric `total` and
 * appends to a page's own `page;dur`, where this answer holds `app;dur` alone.
 */
export function serverTiming(): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    c.res.headers.set("Server-Timing", `app;dur=${(performance.now() - started).toFixed(1)}`);
  };
}

/**
 * Gives each request an id (kept from `x-request-id` when a proxy sent a sane one). Not
 * hono/request-id: its check refuses ids with `.` and takes `=`, so other ids would be kept.
 */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const id = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", id);
    await next();
    c.res.headers.set("x-request-id", id);
  };
}

/**
 * A HEAD's answer is the GET's without its body: Hono runs the GET handler and drops the body
 * unread, which left a streamed one (a replay's events, a link's, an export) holding what it holds
 * (its reads, its cut, its place among the link's or the account's requests) for good. Given up.
 */
export function headWithoutBody(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== "HEAD" || !c.res.body) return;
    c.res.body.cancel().catch(() => {});
    c.res = new Response(null, c.res);
  };
}

/** The request class of a path (db/connection_shares.ts); null: not limited (the cron). */
export function requestClassOf(method: string, path: string): RequestClass | null {
  if (path === "/api/health") return "health";
  if (
    path === "/api/ingest" || path === "/api/sdk/config" ||
    (method === "POST" && path === "/api/sessions/cancel")
  ) {
    return "ingest";
  }
  if (path.startsWith("/api/cron/")) return null;
  if (path.startsWith("/s/")) return "links"; // a public link's page and events: no account
  return path === "/api" || path.startsWith("/api/") ? "dashboard" : "pages";
}

/** Runs each request as its class, so no class can take the connections another needs. */
export function requestClasses(): MiddlewareHandler {
  return (c, next) => {
    const requestClass = requestClassOf(c.req.method, c.req.path);
    return requestClass ? runAs(requestClass, next) : next();
  };
}

/**
 * Refuses a NUL character anywhere in the path or query (`%00`): no id, cursor or filter holds
 * one, and PostgreSQL cannot compare text with it, so it is a 400 before any handler runs.
 */
export function refuseNulInAddress(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const where = /%00/i.test(url.pathname) ? "path" : /%00/i.test(url.search) ? "query" : null;
    if (!where) return await next();
    const error = validation("invalid address", [
      { path: where, message: "must not contain NUL characters" },
    ]);
    return c.json(errorBody(error), 400);
  };
}

/** A class out of connections frees one within moments (its queries are short). */
export const BUSY_RETRY_SECONDS = 1;

/** Renders any thrown error as the JSON error body; unexpected ones are logged and reported. */
export function renderError(error: Error, c: Context): Response {
  if (error instanceof AppError) {
    return c.json(errorBody(error), error.status as 400, errorHeaders(error));
  }
  if (error instanceof HTTPException && error.status < 500) {
    return c.json({ kind: "validation", message: error.message }, error.status);
  }
  if (error instanceof ShareBusy || error instanceof WorkAbandoned) {
    log.warn("db:share:busy", { requestId: c.get("requestId"), error: error.message });
    return renderError(unavailable("the service is busy; retry shortly", BUSY_RETRY_SECONDS), c);
  }
  if (isDatabaseUnavailable(error)) {
    log.warn("db:unavailable", { requestId: c.get("requestId"), error: String(error) });
    return renderError(
      unavailable("the database is unavailable; retry shortly", RETRY_AFTER_SECONDS),
      c,
    );
  }
  log.error("http:request:failed", {
    requestId: c.get("requestId"),
    method: c.req.method,
    path: c.req.path,
    error: error.stack ?? String(error),
  });
  captureException(error);
  return c.json({ kind: "internal", message: "internal error" }, 500);
}
