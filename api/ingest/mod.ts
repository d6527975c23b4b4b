// The public, key-authenticated surface used by the SDK: ingest, SDK-side cancel and its
// recording settings (sdk_config.ts). CORS is open
// to every origin, on errors too, because the SDK runs on customers' sites; every answer is
// no-store.
import { Hono, type MiddlewareHandler } from "hono";
import { cancelIngestSession, ingestPrepared } from "@/core/ingest/ingest.ts";
import type { AppDeps } from "@/core/deps.ts";
import { cancelBodySchema } from "@/core/ingest/schema.ts";
import type { ApiEnv } from "@/api/env.ts";
import { largeDecodes } from "@/http/body.ts";
import { databaseBudget } from "@/http/database_budget.ts";
import { ingestAdmission } from "./admission.ts";
import { decodePoolOf } from "./decode_pool.ts";
import { ingestBody } from "./ingest_body.ts";
import { meteredIngest, meteredPool } from "./metered.ts";
import { sdkConfigRoutes } from "./sdk_config.ts";
import { noStore } from "@/api/no_store.ts";
import { describe } from "@/api/openapi/route.ts";
import { PUBLIC_KEY_HEADER, publicKey } from "@/api/public_key.ts";
import { body } from "@/api/validate.ts";

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": `Content-Type, Content-Encoding, ${PUBLIC_KEY_HEADER}`,
  "Access-Control-Max-Age": "86400",
};
const CORS_DOC = { "Access-Control-Allow-Origin": "*" };

/** After the handler (or onError) has produced a response, so failures carry CORS too. */
const openCors: MiddlewareHandler<ApiEnv> = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
};

const preflight = describe({
  summary: "CORS preflight",
  tag: "ingest",
  auth: "none",
  responses: { 204: { description: "allowed from any origin", headers: CORS_DOC } },
});

export function ingestRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  // Scoped to the key-authenticated paths: this sub-app is mounted at the /api root, where a bare
  // `use` would reach every other endpoint as well.
  app.use("/ingest", openCors, noStore(), meteredIngest(deps.metrics));
  app.use("/sessions/cancel", openCors, noStore());
  // Past its database budget a request answers 503 + Retry-After, inside CORS, so the SDK reads it
  // and retries. The budget starts once the body is in: a slow upload is the body timeout's (408),
  // not a 503.
  const budget = databaseBudget(deps.config.database.ingestBudgetMs);
  const admitted = ingestAdmission(deps.config.ingestConcurrency);
  const keyed = publicKey({
    keys: deps.knownKeys,
    lookupBudgetMs: deps.config.database.ingestBudgetMs,
  });

  app.post(
    "/ingest",
    describe({
      summary: "Store a batch of recorded events",
      description: "Body as JSON, optionally `Content-Encoding: gzip`; 10 MiB on the wire, 32 " +
        "MiB decoded (past 256 KiB, at most 48× the wire size). A key no project has is 401 " +
        "before the body is read. A batch identical to one already stored for the session is " +
        "answered 204 again; a numbered one (`pageId`, `seq`) stores only its page's events not " +
        "stored yet. A batch of an erased session (deleted, cancelled, or its user erased) is " +
        "410 and stores nothing.",
      tag: "ingest",
      auth: "public-key",
      responses: { 204: { description: "stored", headers: CORS_DOC } },
      errors: [410, 413, 415, 503],
    }),
    keyed,
    ingestBody(meteredPool(decodePoolOf(deps), deps.metrics)),
    admitted,
    budget,
    async (c) => {
      const context = { requestId: c.var.requestId, bytes: c.var.wireBytes };
      // A numbered batch trimmed of events already stored is a large decode's work when large.
      const heavy = <T>(work: () => T) => largeDecodes.run(work);
      const prepared = c.var.ingest;
      const { stored, batch } = await ingestPrepared(
        deps,
        c.var.publicKey,
        prepared,
        context,
        heavy,
      );
      deps.metrics.ingestStored({ ...prepared, batch, eventCount: batch?.eventCount ?? 0 }, stored);
      return c.body(null, 204);
    },
  );
  app.options("/ingest", preflight, (c) => c.body(null, 204));

  app.post(
    "/sessions/cancel",
    describe({
      summary: "Erase a session the SDK decided not to keep",
      description: "204 also when the key's project has no such session yet; either way its " +
        "later batches are refused (410).",
      tag: "ingest",
      auth: "public-key",
      responses: { 204: { description: "deleted (or there was none)", headers: CORS_DOC } },
      errors: [413, 415, 503],
    }),
    keyed,
    body(cancelBodySchema),
    budget,
    async (c) => {
      const { sessionId } = c.req.valid("json");
      await cancelIngestSession(deps, c.var.publicKey, sessionId, { requestId: c.var.requestId });
      return c.body(null, 204);
    },
  );
  app.options("/sessions/cancel", preflight, (c) => c.body(null, 204));

  sdkConfigRoutes(app, deps);
  return app;
}
