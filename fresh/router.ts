// File routes: turns the manifest's `./routes/…` keys into a sorted table of URL patterns, each
// with the layouts and middleware of the folders above it (least specific first).
import type { ComponentType } from "preact";
import type {
  AppProps,
  Manifest,
  MiddlewareHandler,
  MiddlewareModule,
  RouteModule,
} from "./types.ts";
import { compareRanks, decodeParams, isGroup, rankOf, toPattern } from "./route_pattern.ts";

export { toPattern };

export interface Route {
  /** URLPattern syntax, e.g. `/sessions/:id`. */
  pattern: string;
  file: string;
  module: RouteModule;
  layouts: ComponentType<AppProps>[];
  middlewares: MiddlewareHandler<unknown>[];
  matcher: URLPattern;
  rank: number[];
}

export interface RouteTable {
  routes: Route[];
  app?: ComponentType<AppProps>;
  /** Layouts of the routes folder itself, used around the 404 and 500 pages. */
  rootLayouts: ComponentType<AppProps>[];
  notFound?: RouteModule;
  error?: RouteModule;
  /** Middleware for URLs no route matches: folders outside groups whose path prefixes the URL. */
  prefixMiddlewares: {
    matcher: URLPattern;
    depth: number;
    handlers: MiddlewareHandler<unknown>[];
  }[];
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

const EXTENSION = /\.(tsx|ts|jsx|js)$/;

export function buildRouteTable(manifest: Manifest): RouteTable {
  const layouts = new Map<string, ComponentType<AppProps>>();
  const middlewares = new Map<string, MiddlewareHandler<unknown>[]>();
  const pages: [string, RouteModule][] = [];
  const table: RouteTable = { routes: [], rootLayouts: [], prefixMiddlewares: [] };

  for (const [key, module] of Object.entries(manifest.routes)) {
    const rel = key.replace(/^\.\/routes\//, "").replace(EXTENSION, "");
    const slash = rel.lastIndexOf("/");
    const dir = slash < 0 ? "" : rel.slice(0, slash);
    const name = rel.slice(slash + 1);
    if (name === "_app") table.app = (module as RouteModule).default as ComponentType<AppProps>;
    else if (name === "_404") table.notFound = module as RouteModule;
    else if (name === "_500") table.error = module as RouteModule;
    else if (name === "_layout") {
      layouts.set(dir, (module as RouteModule).default as ComponentType<AppProps>);
    } else if (name === "_middleware") {
      const handler = (module as MiddlewareModule).handler;
      middlewares.set(dir, Array.isArray(handler) ? handler : [handler]);
    } else if (!name.startsWith("_")) pages.push([rel, module as RouteModule]);
  }

  for (const [rel, module] of pages) {
    const dirs = ancestors(rel);
    const pattern = module.config?.routeOverride ?? toPattern(rel);
    table.routes.push({
      pattern,
      file: `./routes/${rel}`,
      module,
      layouts: module.config?.skipInheritedLayouts
        ? []
        : dirs.map((d) => layouts.get(d)).filter((l) => l !== undefined),
      middlewares: dirs.flatMap((d) => middlewares.get(d) ?? []),
      matcher: new URLPattern({ pathname: pattern }),
      rank: rankOf(pattern),
    });
  }
  table.routes.sort((a, b) => compareRanks(a.rank, b.rank));
  const rootLayout = layouts.get("");
  if (rootLayout) table.rootLayouts.push(rootLayout);

  for (const [dir, handlers] of middlewares) {
    if (dir.split("/").some(isGroup)) continue;
    const prefix = dir === "" ? "" : toPattern(dir + "/index");
    table.prefixMiddlewares.push({
      matcher: new URLPattern({ pathname: prefix === "" ? "/*" : `${prefix}{/*}?` }),
      depth: dir === "" ? 0 : dir.split("/").length,
      handlers,
    });
  }
  table.prefixMiddlewares.sort((a, b) => a.depth - b.depth);
  return table;
}

export function matchRoute(table: RouteTable, pathname: string): RouteMatch | null {
  for (const route of table.routes) {
    const result = route.matcher.exec({ pathname });
    if (result) return { route, params: decodeParams(result.pathname.groups) };
  }
  return null;
}

export function middlewaresForUnmatched(
  table: RouteTable,
  pathname: string,
): MiddlewareHandler<unknown>[] {
  return table.prefixMiddlewares.filter((m) => m.matcher.test({ pathname }))
    .flatMap((m) => m.handlers);
}

/** `a/(g)/b/page` → ["", "a", "a/(g)", "a/(g)/b"]: the folders whose layouts wrap the page. */
function ancestors(rel: string): string[] {
  const parts = rel.split("/").slice(0, -1);
  return ["", ...parts.map((_, i) => parts.slice(0, i + 1).join("/"))];
}
