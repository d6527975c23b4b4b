// Page-layer configuration (`fresh.config.ts`), with Fresh 1.x's `defineConfig` name, resolved to
// the absolute folders that createPageHandler, createStaticHandler and the build need.
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface FreshConfig {
  /** Static files folder, relative to the project root. Default `static`. */
  staticDir?: string;
  build?: {
    /** Where islands (and the SDK) are built. Default `static/build`. */
    outDir?: string;
  };
  router?: {
    /** Mount path such as `/app`. Default none. */
    basePath?: string;
  };
}

export interface ResolvedFreshConfig {
  rootDir: string;
  staticDir: string;
  buildDir: string;
  basePath: string;
}

export function defineConfig(config: FreshConfig): FreshConfig {
  return config;
}

/** Resolves folders against the folder of `baseUrl` (the manifest's or config's import.meta.url). */
export function resolveConfig(config: FreshConfig, baseUrl: string): ResolvedFreshConfig {
  const rootDir = dirname(fileURLToPath(baseUrl));
  const resolve = (path: string) => isAbsolute(path) ? path : join(rootDir, path);
  return {
    rootDir,
    staticDir: resolve(config.staticDir ?? "static"),
    buildDir: resolve(config.build?.outDir ?? "static/build"),
    basePath: (config.router?.basePath ?? "").replace(/\/$/, ""),
  };
}
