// The documented routes of the /api app with their zod schemas, read back from the middleware
// each route is mounted with (describe, query, body, noStore), so tests can hold every answer to
// exactly what its route declares.
import type { Hono, MiddlewareHandler } from "hono";
import { findTargetHandler } from "hono/utils/handler";
import { DESCRIPTIONS, type RouteDescription } from "@/api/openapi/route.ts";
import { NO_STORE } from "@/api/no_store.ts";
import { VALIDATED } from "@/api/validate.ts";
import { errorStatuses as statusesOf } from "@/api/openapi/document.ts";
import type { z } from "zod";
import type { ApiEnv } from "@/api/env.ts";

export interface RouteDoc extends RouteDescription {
  method: string;
  /** As OpenAPI writes it, from the service root: `/api/sessions/{id}`. */
  path: string;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyOptional?: boolean;
  noStore?: boolean;
}

const openApiPath = (path: string) => `/api${path}`.replace(/:(\w+)/g, "{$1}");

export function documentedRoutes(api: Hono<ApiEnv>): RouteDoc[] {
  const routes = new Map<string, Partial<RouteDoc>>();
  const noStorePrefixes: string[] = [];
  for (const route of api.routes) {
    const handler = findTargetHandler(route.handler) as MiddlewareHandler;
    const path = openApiPath(route.path);
    if (route.method === "ALL") {
      if (NO_STORE.has(handler)) noStorePrefixes.push(path.replace(/\/\*$/, ""));
      continue;
    }
    const key = `${route.method} ${path}`;
    const doc = routes.get(key) ?? { method: route.method.toLowerCase(), path };
    const description = DESCRIPTIONS.get(handler);
    if (description) Object.assign(doc, description);
    Object.assign(doc, VALIDATED.get(handler) ?? {});
    if (NO_STORE.has(handler)) doc.noStore = true;
    routes.set(key, doc);
  }
  const described = [...routes.values()].filter((r): r is RouteDoc => "summary" in r);
  for (const route of described) {
    if (noStorePrefixes.some((p) => route.path === p || route.path.startsWith(`${p}/`))) {
      route.noStore = true;
    }
  }
  return described;
}

/** The routes of the /api app, documented or not, as `METHOD /api/path`. */
export function mountedRoutes(api: Hono<ApiEnv>): string[] {
  return [
    ...new Set(
      api.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${openApiPath(r.path)}`),
    ),
  ];
}

export function errorStatuses(route: RouteDoc): number[] {
  return statusesOf({
    method: route.method,
    path: route.path,
    authenticated: route.auth !== "none",
    cookie: route.auth === "cookie",
    role: Boolean(route.role),
    validates: Boolean(route.query || route.body),
    body: Boolean(route.body),
    errors: route.errors,
  });
}
