// The whole app with its pages, on a disposable database: for page tests through `app.request()`
// with a fake islands build (one file per island of fresh.gen.ts), and for browser tests on a
// 127.0.0.1 port with the islands really built.
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { buildIslands } from "@/fresh/build.ts";
import { createPageHandler, createStaticHandler, type PageHandler } from "@/fresh/server.ts";
import { copyVendorStyles } from "@/fresh/vendor_styles.ts";
import { VENDOR_STYLES } from "@/fresh.config.ts";
import manifest from "@/fresh.gen.ts";
import { loadConfig } from "@/config.ts";
import { type FetchHandler, serve } from "@/serve.ts";
import type { AppParts } from "@/app.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { APP_ORIGIN } from "./auth.ts";

export interface PagesApp extends TestApp {
  /** Errors that became 500 pages. */
  errors: unknown[];
  /** The page handler, to mount in an app of other dependencies (e.g. an unreachable database). */
  pages: PageHandler;
}

export async function createPagesApp(env: Record<string, string> = {}): Promise<PagesApp> {
  const buildDir = await Deno.makeTempDir({ prefix: "pages-build-" });
  const names = Object.keys(manifest.islands).map((key) => basename(key).replace(/\.tsx?$/, ""));
  const islands = Object.fromEntries(names.map((name) => [name, `island-${name}-AAAAAAAA.js`]));
  await Deno.writeTextFile(
    `${buildDir}/manifest.json`,
    JSON.stringify({
      buildId: "test",
      boot: "fresh-boot-AAAAAAAA.js",
      islands,
      imports: {},
      files: ["fresh-boot-AAAAAAAA.js", ...Object.values(islands)],
    }),
  );
  const errors: unknown[] = [];
  const pages = await createPageHandler(manifest, {
    staticDir: "static",
    buildDir,
    onError: (error) => errors.push(error),
  });
  const t = await createTestApp(env, { pages });
  return {
    ...t,
    errors,
    pages,
    [Symbol.asyncDispose]: async () => {
      await t[Symbol.asyncDispose]();
      await Deno.remove(buildDir, { recursive: true });
    },
  };
}

/** A page request as the browser makes it: GET, or a same-origin form post. */
export async function page(
  t: TestApp,
  path: string,
  options: { cookie?: string; form?: Record<string, string>; origin?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (!options.form) return await t.app.request(path, { headers });
  headers.origin = options.origin ?? APP_ORIGIN;
  headers["content-type"] = "application/x-www-form-urlencoded";
  return await t.app.request(path, {
    method: "POST",
    headers,
    body: new URLSearchParams(options.form).toString(),
  });
}

export interface PagesServer extends AsyncDisposable {
  /** The server's origin, also its APP_URL (so same-origin checks pass). */
  url: string;
  t: TestApp;
}

/** The app with its pages on a random 127.0.0.1 port, islands built once into a temporary folder. */
/**
 * `dev: false` builds the islands as production does (minified), for benchmarks; `mounts` adds
 * sub-apps (the built SDK's assets, for tests that record a page and then read it in the pages).
 */
export async function startPagesServer(
  env: Record<string, string> = {},
  { dev = true, mounts = [] }: { dev?: boolean; mounts?: AppParts["mounts"] } = {},
): Promise<PagesServer> {
  const rootDir = fileURLToPath(new URL("../../", import.meta.url));
  const buildDir = await islandsBuild(rootDir, dev);
  const staticDir = `${rootDir}static`;
  let handle: FetchHandler = () => new Response(null, { status: 503 });
  const { http } = loadConfig({ NODE_ENV: "test", ...env });
  const server = await serve((req, info) => handle(req, info), {
    hostname: "127.0.0.1",
    port: 0,
    ...http,
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const t = await createTestApp({ ...env, APP_URL: url }, {
    staticFiles: createStaticHandler({ staticDir, buildDir }),
    pages: await createPageHandler(manifest, { staticDir, buildDir }),
    mounts,
  });
  handle = (req, info) => t.app.fetch(req, info);
  return {
    url,
    t,
    [Symbol.asyncDispose]: async () => {
      await server.shutdown();
      await t[Symbol.asyncDispose]();
    },
  };
}

/** One islands build per mode for the whole test process (every browser test file shares it). */
const builds = new Map<boolean, Promise<string>>();

function islandsBuild(rootDir: string, dev: boolean): Promise<string> {
  let build = builds.get(dev);
  if (!build) {
    build = (async () => {
      const buildDir = await Deno.makeTempDir({ prefix: "pages-e2e-build-" });
      addEventListener("unload", () => Deno.removeSync(buildDir, { recursive: true }));
      await buildIslands({ rootDir, islands: Object.keys(manifest.islands), buildDir, dev });
      await copyVendorStyles(rootDir, buildDir, VENDOR_STYLES);
      return buildDir;
    })();
    builds.set(dev, build);
  }
  return build;
}
