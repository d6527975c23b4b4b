// Turns a route (or the `_404` / `_500` page) plus data into an HTML Response.
import type { ComponentType, VNode } from "preact";
import type { BuildManifest } from "./build_manifest.ts";
import { renderPage } from "./render.ts";
import type { Route, RouteTable } from "./router.ts";
import type { AsyncRoute, FreshContext, PageProps, RenderOptions, RouteModule } from "./types.ts";

/** Per-request facts the renderers need besides the context. */
export interface PageRequest {
  req: Request;
  url: URL;
  table: RouteTable;
  basePath: string;
  build: () => BuildManifest;
}

type PageComponent = ComponentType<PageProps<unknown, unknown>>;

export async function renderRoute(
  page: PageRequest,
  route: Route,
  ctx: FreshContext,
  data: unknown,
  options?: RenderOptions,
): Promise<Response> {
  let component = route.module.default as PageComponent | AsyncRoute | undefined;
  if (!component) throw new Error(`${route.file} has no default export to render`);
  if (isAsync(component)) {
    // Fresh's async routes: `export default async function Page(req, ctx)` returns the markup.
    const result = await (component as AsyncRoute)(page.req, { ...ctx, state: ctx.state });
    if (result instanceof Response) return result;
    component = () => result as VNode | null;
  }
  const html = renderPage({
    page: component as PageComponent,
    layouts: route.layouts,
    app: route.module.config?.skipAppWrapper ? undefined : page.table.app,
    props: propsFor(page, ctx, route.pattern, data),
    build: page.build,
    basePath: page.basePath,
  });
  return htmlResponse(html, options?.status ?? 200, options);
}

/**
 * A thrown error's answer: `_500`'s handler when it has one (its `ctx.render` renders the `_500`
 * page, with the status it is given), else the `_500` page with status 500.
 */
export async function renderError(
  page: PageRequest,
  module: RouteModule | undefined,
  ctx: FreshContext,
  error: unknown,
): Promise<Response> {
  const handler = module?.handler;
  if (typeof handler !== "function") return renderSpecial(page, module, ctx, 500, undefined, error);
  const errorCtx = {
    ...ctx,
    error,
    render: (data?: unknown, options?: RenderOptions) =>
      renderSpecial(page, module, ctx, 500, data, error, options),
  };
  try {
    return await handler(page.req, errorCtx);
  } catch (handlerError) {
    console.error("The _500 handler failed:", handlerError);
    return renderSpecial(page, module, ctx, 500, undefined, error);
  }
}

/** The `_404` or `_500` page, wrapped in `_app` and the root `_layout`; plain text without one. */
export function renderSpecial(
  page: PageRequest,
  module: RouteModule | undefined,
  ctx: FreshContext,
  status: 404 | 500,
  data?: unknown,
  error?: unknown,
  options?: RenderOptions,
): Promise<Response> {
  const fallback = status === 404 ? "Not Found" : "Internal Server Error";
  const component = module?.default as PageComponent | undefined;
  try {
    if (!component) return Promise.resolve(textResponse(fallback, status));
    const html = renderPage({
      page: component,
      layouts: page.table.rootLayouts,
      app: module?.config?.skipAppWrapper ? undefined : page.table.app,
      props: { ...propsFor(page, ctx, ctx.route ?? "", data), ...(status === 500 && { error }) },
      build: page.build,
      basePath: page.basePath,
    });
    return Promise.resolve(htmlResponse(html, options?.status ?? status, options));
  } catch (renderError) {
    if (status === 404) return Promise.reject(renderError);
    console.error("The _500 page failed to render:", renderError);
    return Promise.resolve(textResponse(fallback, 500));
  }
}

function propsFor(
  page: PageRequest,
  ctx: FreshContext,
  route: string,
  data: unknown,
): PageProps<unknown, unknown> {
  return { url: page.url, route, params: ctx.params, data, state: ctx.state };
}

function isAsync(fn: unknown): boolean {
  return typeof fn === "function" && fn.constructor.name === "AsyncFunction";
}

function htmlResponse(html: string, status: number, options?: RenderOptions): Response {
  const headers = new Headers(options?.headers);
  if (!headers.has("content-type")) headers.set("content-type", "text/html; charset=utf-8");
  return new Response(html, { status, statusText: options?.statusText, headers });
}

function textResponse(text: string, status: number): Response {
  return new Response(text, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
