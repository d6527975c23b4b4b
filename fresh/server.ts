// Fresh 1.x `$fresh/server.ts`: the types route files use, plus the entry points the app calls
// (createPageHandler for pages, createStaticHandler for static files and built islands).
export type {
  AppProps,
  AsyncRoute,
  ErrorHandler,
  ErrorHandlerContext,
  ErrorPageProps,
  FreshContext,
  Handler,
  HandlerContext,
  Handlers,
  LayoutProps,
  Manifest,
  MiddlewareHandler,
  MiddlewareHandlerContext,
  PageProps,
  RenderOptions,
  RouteConfig,
  UnknownPageProps,
} from "./types.ts";
export {
  createPageHandler,
  matchedPatterns,
  type PageHandler,
  type PageHandlerOptions,
} from "./handler.ts";
export { createStaticHandler, type StaticHandler, type StaticOptions } from "./static.ts";
export {
  defineConfig,
  type FreshConfig,
  resolveConfig,
  type ResolvedFreshConfig,
} from "./config.ts";
