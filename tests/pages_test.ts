// The app's own pages through the page layer, with a stand-in for the dependencies they use.
import assert from "node:assert/strict";
import type { AppDeps, ServiceStatus } from "@/core/deps.ts";
import { createPageHandler } from "@/fresh/server.ts";
import manifest from "@/fresh.gen.ts";

const STATUS: ServiceStatus = { version: "9.9.9", databaseKind: "pglite", migrationLevel: "0042" };

async function pages(status: () => Promise<ServiceStatus>) {
  const buildDir = await Deno.makeTempDir({ prefix: "pages-build-" });
  await Deno.writeTextFile(
    `${buildDir}/manifest.json`,
    JSON.stringify({
      buildId: "b1",
      boot: "fresh-boot-AAAAAAAA.js",
      islands: { HealthStatus: "island-HealthStatus-BBBBBBBB.js" },
      imports: {},
      files: ["fresh-boot-AAAAAAAA.js", "island-HealthStatus-BBBBBBBB.js"],
    }),
  );
  const errors: unknown[] = [];
  const handle = await createPageHandler(manifest, {
    staticDir: "static",
    buildDir,
    onError: (error) => errors.push(error),
  });
  // Only what the pages touch: status(), the app URL for the viewer lookup (no cookie sent) and
  // the database budget every page runs within.
  const config = {
    appUrl: "http://localhost:3000",
    database: { dashboardBudgetMs: 15_000 },
    http: { bodyTimeoutMs: 30_000 },
  };
  const deps = { status, config } as unknown as AppDeps;
  return {
    errors,
    get: (path: string) => handle(new Request(`http://localhost${path}`), { deps }),
    [Symbol.asyncDispose]: () => Deno.remove(buildDir, { recursive: true }),
  };
}

Deno.test("start page: shows version, database kind and migration level", async () => {
  await using app = await pages(() => Promise.resolve(STATUS));
  const res = await app.get("/");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  assert.match(res.headers.get("server-timing") ?? "", /^page;dur=\d+(\.\d)?$/);
  const html = await res.text();
  assert.match(html, /<dt>Version<\/dt><dd>9\.9\.9<\/dd>/);
  assert.match(html, /<dd>PGlite \(embedded\)<\/dd>/);
  assert.match(html, /<code>0042<\/code>/);
  for (const sheet of ["styles", "frame", "components", "content", "charts"]) {
    assert.match(
      html,
      new RegExp(`<link\\s+rel="stylesheet" href="/${sheet}\\.css\\?__frsh_c=b1"`),
    );
  }
});

Deno.test("start page: the health island is marked and its boot script loaded", async () => {
  await using app = await pages(() => Promise.resolve(STATUS));
  const html = await (await app.get("/")).text();
  assert.match(html, /<fresh-island data-island="HealthStatus" data-props="0"/);
  assert.match(html, /"props":\[\{"endpoint":"\/api\/health","intervalMs":15000\}\]/);
  assert.match(html, /<script type="module" src="\/build\/fresh-boot-AAAAAAAA\.js">/);
});

Deno.test("pages: an unknown page answers the 404 page", async () => {
  await using app = await pages(() => Promise.resolve(STATUS));
  const res = await app.get("/no/such/page");
  assert.equal(res.status, 404);
  const html = await res.text();
  assert.match(html, /<h1>Page not found<\/h1>/);
  assert.equal(html.match(/<title>/g)?.length, 1);
  assert.match(html, /<title>Not found · Playhead<\/title>/);
});

Deno.test("pages: a failure answers the 500 page without revealing the error", async () => {
  await using app = await pages(() => Promise.reject(new Error("secret connection string")));
  const res = await app.get("/");
  assert.equal(res.status, 500);
  const html = await res.text();
  assert.match(html, /<h1>Something went wrong<\/h1>/);
  assert.doesNotMatch(html, /secret/);
  assert.equal(app.errors.length, 1);
});
