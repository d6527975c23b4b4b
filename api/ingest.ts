// The public, key-authenticated surface used by the SDK: ingest and SDK-side cancel. CORS is open
// to every origin, on errors too, because the SDK runs on customers' sites.
import { type Context, Hono, type Next } from "hono";
import { cancelIngestSession, checkKeyFormat, ingestBatch } from "../core/ingest.ts";
import type { AppDeps } from "../app_deps.ts";
import { readJsonBody } from "./body.ts";
import { cancelBodySchema, ingestBodySchema } from "./ingest_schema.ts";
import type { ApiEnv } from "./env.ts";

const KEY_HEADER = "x-service-public-key";

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": `Content-Type, Content-Encoding, ${KEY_HEADER}`,
  "Access-Control-Max-Age": "86400",
};

export function ingestRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  // After the handler (or onError) has produced a response, so failures carry CORS too. Scoped to
  // the key-authenticated paths: this sub-app is mounted at the /api root, where a bare `use`
  // would reach every other endpoint as well.
  app.use("/ingest", corsAndNoStore);
  app.use("/sessions/cancel", corsAndNoStore);
  async function corsAndNoStore(c: Context<ApiEnv>, next: Next) {
    await next();
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
    c.res.headers.set("Cache-Control", "no-store");
  }

  app.options("/ingest", (c) => c.body(null, 204));
  app.options("/sessions/cancel", (c) => c.body(null, 204));

  app.post("/ingest", async (c) => {
    // The key is checked before the body is read: a bad key is 401 whatever the body holds.
    const key = checkKeyFormat(c.req.header(KEY_HEADER), { requestId: c.var.requestId });
    const { body, wireBytes } = await readJsonBody(c.req.raw, ingestBodySchema);
    await ingestBatch(deps, key, body, { requestId: c.var.requestId, bytes: wireBytes });
    return c.body(null, 204);
  });

  app.post("/sessions/cancel", async (c) => {
    const key = checkKeyFormat(c.req.header(KEY_HEADER), { requestId: c.var.requestId });
    const { body } = await readJsonBody(c.req.raw, cancelBodySchema);
    await cancelIngestSession(deps, key, body.sessionId, { requestId: c.var.requestId });
    return c.body(null, 204);
  });

  return app;
}
