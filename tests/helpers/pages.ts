// The whole app with its pages, on a disposable database, for page tests through `app.request()`:
// a fake islands build (one file per island of fresh.gen.ts) stands in for `deno task build`.
import { basename } from "node:path";
import { createPageHandler } from "../../fresh/server.ts";
import manifest from "../../fresh.gen.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { APP_ORIGIN } from "./auth.ts";

export interface PagesApp extends TestApp {
  /** Errors that became 500 pages. */
  errors: unknown[];
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
