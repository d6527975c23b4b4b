// GET /api/sdk/config: the key's project's recording settings, read by the SDK before it sends
// anything (docs/decisions.md "Capture control"). Key-authenticated and open to every origin like
// ingest; a 200 may be cached for a minute, by the key (`Vary`), so a settings change reaches
// every visitor within 60 s; a refusal is never cached.
import type { Hono, MiddlewareHandler } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { recordingForKey } from "@/core/projects/recording.ts";
import { sdkConfig } from "@/core/projects/schema.ts";
import { databaseBudget } from "@/http/database_budget.ts";
import type { ApiEnv } from "@/api/env.ts";
import { describe } from "@/api/openapi/route.ts";
import { PUBLIC_KEY_HEADER, publicKey } from "@/api/public_key.ts";

/** How long a browser may reuse the settings (the bound: at most 60 s). */
export const SDK_CONFIG_MAX_AGE_S = 60;

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": PUBLIC_KEY_HEADER,
  "Access-Control-Max-Age": "86400",
};

/** CORS on every answer (errors too), and the cache rule by outcome. */
const configHeaders: MiddlewareHandler<ApiEnv> = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
  const cacheable = c.req.method === "GET" && c.res.status === 200;
  c.res.headers.set(
    "Cache-Control",
    cacheable ? `public, max-age=${SDK_CONFIG_MAX_AGE_S}` : "no-store",
  );
  c.res.headers.set("Vary", PUBLIC_KEY_HEADER);
};

export function sdkConfigRoutes(app: Hono<ApiEnv>, deps: AppDeps): void {
  app.use("/sdk/config", configHeaders);
  app.get(
    "/sdk/config",
    describe({
      summary: "The recording and network settings of the key's project, for the SDK",
      description: "A key no project has is 401 before anything else. Cacheable for " +
        `${SDK_CONFIG_MAX_AGE_S} s per key.`,
      tag: "ingest",
      auth: "public-key",
      responses: { 200: { description: "the settings", body: sdkConfig } },
      errors: [503],
    }),
    publicKey({ keys: deps.knownKeys, lookupBudgetMs: deps.config.database.ingestBudgetMs }),
    databaseBudget(deps.config.database.ingestBudgetMs),
    async (c) => c.json(await recordingForKey(deps, c.var.publicKey)),
  );
  app.options(
    "/sdk/config",
    describe({
      summary: "CORS preflight",
      tag: "ingest",
      auth: "none",
      responses: { 204: { description: "allowed from any origin" } },
    }),
    (c) => c.body(null, 204),
  );
}
