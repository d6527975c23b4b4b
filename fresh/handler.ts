// The page handler: matches a request to a route, runs its middleware chain, then the route's
// handler or page, and turns a missing route into `_404` and a thrown error into `_500`.
import { type BuildManifest, readBuildManifest } from "./build_manifest.ts";
import { registerIslands } from "./islands.ts";
import { buildRouteTable, matchRoute, middlewaresForUnmatched, type Route } from "./router.ts";
import { __setAssetConfig } from "./runtime.ts";
import type { FreshContext, Handler, Handlers, Manifest, RenderOptions } from "./types.ts";
import { type PageRequest, renderError, renderRoute, renderSpecial } from "./respond.ts";

/** The route pattern each request was matched to (`/replays/:sessionId`), for the app's metrics. */
export const matchedPatterns = new WeakMap<Request, string>();

export interface PageHandlerOptions {
  /** Folder of files served as-is (`static/`). */
  staticDir: string;
  /** Folder the islands build writes to (`static/build/`), served under `/build/`. */
  buildDir: string;
  /** Mount path such as `/app`; routes and asset URLs are relative to it. */
  basePath?: string;
  /** Re-read the build manifest on every request so rebuilt islands show up. */
  dev?: boolean;
  /**
   * Called with every error that becomes a 500 page (not one that `_500`'s handler answers with
   * another status); defaults to console.error.
   */
  onError?: (error: unknown, req: Request) => void;
}

export type PageHandler = (req: Request, state: Record<string, unknown>) => Promise<Response>;

export async function createPageHandler(
  manifest: Manifest,
  options: PageHandlerOptions,
): Promise<PageHandler> {
  const table = buildRouteTable(manifest);
  const islandNames = registerIslands(manifest);
  const basePath = (options.basePath ?? "").replace(/\/$/, "");
  let build = islandNames.length > 0 ? await readBuildManifest(options.buildDir) : null;
  __setAssetConfig(build?.buildId ?? "", basePath);
  const onError = options.onError ?? ((error) => console.error(error));

  const getBuild = (): BuildManifest => {
    if (!build) throw new Error(`No islands build in ${options.buildDir}: run deno task build`);
    return build;
  };

  return async (req, initialState) => {
    if (options.dev && islandNames.length > 0) build = await readBuildManifest(options.buildDir);
    const url = new URL(req.url);
    const pathname = stripBase(url.pathname, basePath);
    const match = pathname === null ? null : matchRoute(table, pathname);
    if (match) matchedPatterns.set(req, match.route.pattern);
    const page: PageRequest = { req, url, table, basePath, build: getBuild };
    const ctx = makeContext(page, match?.route ?? null, match?.params ?? {}, { ...initialState });
    const chain = match ? match.route.middlewares : middlewaresForUnmatched(table, pathname ?? "/");
    let next = 0;
    const final = () => match ? dispatch(req, ctx, match.route) : ctx.renderNotFound();
    ctx.next = () => next < chain.length ? Promise.resolve(chain[next++](req, ctx)) : final();
    try {
      const response = await ctx.next();
      return req.method === "HEAD" ? withoutBody(response) : response;
    } catch (error) {
      const response = await renderError(page, table.error, ctx, error);
      if (response.status === 500) onError(error, req);
      return response;
    }
  };
}

function makeContext(
  page: PageRequest,
  route: Route | null,
  params: Record<string, string>,
  state: Record<string, unknown>,
): FreshContext {
  const ctx: FreshContext = {
    url: page.url,
    params,
    state,
    route: route?.pattern ?? null,
    destination: route ? "route" : "notFound",
    next: () => Promise.reject(new Error("ctx.next() is only available in middleware")),
    render: (data?: unknown, options?: RenderOptions) => {
      if (!route) return renderSpecial(page, page.table.notFound, ctx, 404, data);
      return renderRoute(page, route, ctx, data, options);
    },
    renderNotFound: (data?: unknown) => renderSpecial(page, page.table.notFound, ctx, 404, data),
  };
  return ctx;
}

/** Runs the route's handler for the method, or renders the page for GET/HEAD; otherwise 405. */
function dispatch(req: Request, ctx: FreshContext, route: Route): Promise<Response> {
  const handler = route.module.handler as
    | Handler<unknown, unknown>
    | Handlers<unknown, unknown>
    | undefined;
  if (typeof handler === "function") return Promise.resolve(handler(req, ctx));
  const method = req.method.toUpperCase() as keyof Handlers;
  const own = handler?.[method] ?? (method === "HEAD" ? handler?.GET : undefined);
  if (own) return Promise.resolve(own(req, ctx));
  const hasPage = route.module.default !== undefined;
  if ((method === "GET" || method === "HEAD") && hasPage) return ctx.render();
  const allowed = new Set(Object.keys(handler ?? {}));
  if (hasPage || allowed.has("GET")) allowed.add("GET").add("HEAD");
  return Promise.resolve(
    new Response("Method Not Allowed", {
      status: 405,
      headers: { allow: [...allowed].join(", "), "content-type": "text/plain; charset=utf-8" },
    }),
  );
}

function stripBase(pathname: string, basePath: string): string | null {
  if (basePath === "") return pathname;
  if (pathname === basePath) return "/";
  return pathname.startsWith(basePath + "/") ? pathname.slice(basePath.length) : null;
}

function withoutBody(response: Response): Response {
  // Given up, not left unread: a streamed body's request holds places until it ends (routes/s/).
  response.body?.cancel().catch(() => {});
  return new Response(null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
