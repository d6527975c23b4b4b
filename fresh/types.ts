// Fresh 1.x public types (PageProps, Handlers, FreshContext, …) with the same names and shapes,
// so route and island files type-check unchanged against real Fresh.
// deno-lint-ignore-file no-explicit-any
import type { ComponentType, VNode } from "preact";

/** Options for `ctx.render()` / `ctx.renderNotFound()`. */
export interface RenderOptions {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

/** Props of a page component (and, with `Component`, of `_app` and `_layout`). */
export interface PageProps<Data = unknown, State = Record<string, unknown>> {
  url: URL;
  /** The route pattern, e.g. `/sessions/:id`. */
  route: string;
  params: Record<string, string>;
  data: Data;
  state: State;
  /** Set on `_500` pages. */
  error?: unknown;
}

export interface AppProps<Data = unknown, State = Record<string, unknown>>
  extends PageProps<Data, State> {
  Component: ComponentType<Record<string, never>>;
}
export type LayoutProps<Data = unknown, State = Record<string, unknown>> = AppProps<Data, State>;
export type UnknownPageProps = PageProps<undefined>;
export type ErrorPageProps = PageProps<undefined> & { error: unknown };

export interface FreshContext<State = Record<string, unknown>, Data = unknown> {
  url: URL;
  params: Record<string, string>;
  state: State;
  /** The route pattern matched, or null for a 404. */
  route: string | null;
  /** Where the request is going: a route or the not-found page. */
  destination: "route" | "notFound";
  /** Remote address of the client when known. */
  remoteAddr?: Deno.NetAddr;
  /** In middleware: run the rest of the chain (deeper middleware, then the route). */
  next(): Promise<Response>;
  render(data?: Data, options?: RenderOptions): Promise<Response>;
  renderNotFound(data?: Data): Promise<Response>;
  /** In a `_500` handler: the error thrown. */
  error?: unknown;
}
/** Fresh 1.x aliases. */
export type HandlerContext<Data = unknown, State = Record<string, unknown>> = FreshContext<
  State,
  Data
>;
export type MiddlewareHandlerContext<State = Record<string, unknown>> = FreshContext<State>;
/** As in Fresh 1.6, the one context type; `error` is set for `_500`'s handler. */
export type ErrorHandlerContext<State = Record<string, unknown>> = FreshContext<State>;
/**
 * `_500.tsx`'s `handler`: answers a thrown error, usually with `ctx.render(data, options)`, which
 * renders the `_500` page (status 500 unless the options say otherwise).
 */
export type ErrorHandler<State = Record<string, unknown>> = (
  req: Request,
  ctx: ErrorHandlerContext<State>,
) => Response | Promise<Response>;

export type Handler<Data = unknown, State = Record<string, unknown>> = (
  req: Request,
  ctx: FreshContext<State, Data>,
) => Response | Promise<Response>;

export type KnownMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
export type Handlers<Data = unknown, State = Record<string, unknown>> = {
  [M in KnownMethod]?: Handler<Data, State>;
};

export type MiddlewareHandler<State = Record<string, unknown>> = (
  req: Request,
  ctx: FreshContext<State>,
) => Response | Promise<Response>;

export interface RouteConfig {
  /** Replace the path derived from the file name, e.g. `/sessions/:id`. */
  routeOverride?: string;
  /** Render without the `_app` wrapper. */
  skipAppWrapper?: boolean;
  /** Render without inherited `_layout`s. */
  skipInheritedLayouts?: boolean;
}

/** An async route component: `export default async function Page(req, ctx)`. */
export type AsyncRoute<Data = unknown, State = Record<string, unknown>> = (
  req: Request,
  ctx: FreshContext<State, Data>,
) => Promise<VNode | Response | null>;

/** A module under `routes/` as imported by the manifest. */
// `any` as in Fresh: each module picks its own Data and State, the manifest must accept them all.
export interface RouteModule {
  default?: ComponentType<any> | AsyncRoute<any, any>;
  handler?: Handler<any, any> | Handlers<any, any>;
  config?: RouteConfig;
}
export interface MiddlewareModule {
  handler: MiddlewareHandler<any> | MiddlewareHandler<any>[];
}
export interface IslandModule {
  default: ComponentType<any>;
}

/** The shape of `fresh.gen.ts`'s default export. */
export interface Manifest {
  routes: Record<string, RouteModule | MiddlewareModule>;
  islands: Record<string, IslandModule>;
  baseUrl: string;
}
