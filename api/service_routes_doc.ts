// Route docs of the service endpoints: health, this document, avatars and the daily cleanup.
import { describeRoute } from "./openapi_route.ts";
import { cleanupResult, health } from "./service_schema.ts";

export const serviceRoutes = [
  describeRoute({
    method: "get",
    path: "/api/health",
    summary: "The service is up and its database answers",
    tag: "service",
    auth: "none",
    noStore: true,
    responses: { 200: { description: "healthy", body: health } },
    errors: [503],
  }),
  describeRoute({
    method: "get",
    path: "/api/openapi.json",
    summary: "This document",
    tag: "service",
    auth: "none",
    responses: { 200: { description: "OpenAPI 3.1", contentType: "application/json" } },
  }),
  describeRoute({
    method: "get",
    path: "/api/avatars/{file}",
    summary: "An avatar picture rendered by the service",
    description: "Cached for a year: a new seed means a new URL.",
    tag: "service",
    auth: "none",
    params: { file: "`{seed}.svg`" },
    responses: {
      200: {
        description: "the picture",
        contentType: "image/svg+xml",
        headers: { "Cache-Control": "public, max-age=31536000, immutable" },
      },
    },
  }),
  describeRoute({
    method: "get",
    path: "/api/cron/daily-cleanup",
    summary: "Run the daily cleanup now",
    description: "Deletes expired and answered invites, sessions older than 7 days, tracked " +
      "users without sessions and organisations without members. Main also runs it at 03:30 UTC.",
    tag: "service",
    auth: "bearer",
    noStore: true,
    responses: { 200: { description: "rows deleted by each sweep", body: cleanupResult } },
  }),
];
