// Times every answer of the app (its head, as Server-Timing does) into the app's metrics, labelled
// by the route pattern that answered — a page's (`/replays/:sessionId`) or the API's
// (`/api/sessions/:id`) — never by the path asked for, so no id or URL becomes a label.
import type { Context, MiddlewareHandler } from "hono";
import { matchedPatterns } from "@/fresh/server.ts";
import type { Metrics } from "@/core/service/metrics.ts";

export function requestMetrics(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    metrics.httpRequest(routeOf(c), c.req.method, c.res.status, seconds);
  };
}

/** The pattern that answered; `(none)` when no route did (a 404 of the page layer). */
function routeOf(c: Context): string {
  const page = matchedPatterns.get(c.req.raw);
  if (page) return page;
  const route = c.req.routePath;
  return route === "/*" || route === "*" ? "(none)" : route;
}
