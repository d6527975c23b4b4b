// GET /api/openapi.json: every endpoint of the service, generated from the route definitions the
// handlers are mounted with (api/openapi/document.ts).
import { Hono } from "hono";
import { VERSION } from "@/core/deps.ts";
import type { ApiEnv } from "@/api/env.ts";
import { openApiDocument } from "@/api/openapi/document.ts";
import { describe } from "@/api/openapi/route.ts";

/** `api` is the whole /api app, so the document covers every route mounted on it. */
export function openApiRoutes(api: Hono<ApiEnv>): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  let document: Promise<string> | null = null; // built on first request: it never changes at run time
  app.get(
    "/openapi.json",
    describe({
      summary: "This document",
      tag: "service",
      auth: "none",
      responses: { 200: { description: "OpenAPI 3.1", contentType: "application/json" } },
    }),
    async (c) => {
      document ??= openApiDocument(api, { version: VERSION }).then((doc) => JSON.stringify(doc));
      return c.body(await document, 200, { "Content-Type": "application/json; charset=UTF-8" });
    },
  );
  return app;
}
