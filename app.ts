// The root app: compression around everything, static files and built assets first (no security
// headers: they are not pages), then the /api sub-app, then the page layer.
import { type Context, Hono } from "hono";
import type { AppDeps } from "./core/deps.ts";
import { createApi } from "./api/mod.ts";
import {
  headWithoutBody,
  refuseNulInAddress,
  requestClasses,
  requestId,
  securityHeaders,
  serverTiming,
} from "./http/middleware.ts";
import { compress } from "./http/compress.ts";
import { requestMetrics } from "./http/request_metrics.ts";
import { metricsRoutes } from "./api/service/metrics.ts";
import { addressGroup, clientAddress } from "./http/client_address.ts";

/** Answers a request for a static or built file, or null when the path is not one. */
export type StaticHandler = (req: Request) => Promise<Response | null>;
/** Renders a page route; `state` becomes the initial `ctx.state`. */
export type PageHandler = (req: Request, state: Record<string, unknown>) => Promise<Response>;

export interface AppParts {
  staticFiles?: StaticHandler;
  pages?: PageHandler;
  /** Extra sub-apps mounted at the root before the pages (e.g. the SDK's stable URLs). */
  mounts?: Hono[];
}

/**
 * Ingest's answers (empty, or a short error to the SDK) and the events stream: its batches are
 * base64 of gzip, which gzip cannot shrink and brotli shrinks by a quarter at a CPU cost per byte
 * the stream's bandwidth does not justify on the server (bench/service/compression.ts).
 */
const UNCOMPRESSED =
  /^(\/api\/(ingest|sessions\/cancel|sessions\/[^/]+\/events)|\/s\/[^/]+\/events)$/;

export function createApp(deps: AppDeps, parts: AppParts = {}): Hono {
  const app = new Hono();

  app.use(compress({ skip: (c) => UNCOMPRESSED.test(c.req.path) }));
  if (parts.staticFiles) {
    const serve = parts.staticFiles;
    app.use(async (c, next) => (await serve(c.req.raw)) ?? await next());
  }
  for (const mount of parts.mounts ?? []) app.route("/", mount);

  app.use(headWithoutBody(), serverTiming(), requestId(), securityHeaders(), refuseNulInAddress());
  app.use(requestClasses());
  app.use(requestMetrics(deps.metrics));
  app.route("/api", createApi(deps));
  app.route("/", metricsRoutes(deps));

  const pages = parts.pages;
  // The client's address group: a public link's page throttles token guesses by it (routes/s/).
  const address = (c: Context) => addressGroup(clientAddress(c, deps.config.trustProxy));
  app.all("*", (c) => {
    if (!pages) return c.text("Not found", 404);
    const requestAddress = clientAddress(c, deps.config.trustProxy); // the audit log's
    return pages(c.req.raw, { deps, clientAddress: address(c), requestAddress });
  });
  return app;
}
