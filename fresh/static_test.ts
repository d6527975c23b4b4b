import assert from "node:assert/strict";
import { createStaticHandler, IMMUTABLE, REVALIDATE } from "./static.ts";
import { fakeBuildDir, FIXTURE_STATIC } from "./testdata/helpers.ts";

async function withStatic(
  options: { basePath?: string; dev?: boolean },
  fn: (get: (path: string, init?: RequestInit) => Promise<Response | null>) => Promise<void>,
) {
  const buildDir = await fakeBuildDir();
  try {
    const serve = createStaticHandler({ staticDir: FIXTURE_STATIC, buildDir, ...options });
    await fn((path, init) => serve(new Request(`http://localhost${path}`, init)));
  } finally {
    await Deno.remove(buildDir, { recursive: true });
  }
}

Deno.test("static: files are served with type, length, ETag and a short cache", async () => {
  await withStatic({}, async (get) => {
    const res = await get("/hello.txt");
    assert.ok(res);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), REVALIDATE);
    assert.equal(res.headers.get("content-length"), "13");
    assert.ok(res.headers.get("etag"));
    assert.equal(await res.text(), "hello static\n");
  });
});

Deno.test("static: a matching If-None-Match answers 304", async () => {
  await withStatic({}, async (get) => {
    const first = await get("/styles.css");
    await first?.body?.cancel();
    const etag = first?.headers.get("etag") ?? "";
    const res = await get("/styles.css", { headers: { "if-none-match": etag } });
    assert.equal(res?.status, 304);
    assert.equal(res?.body, null);
  });
});

Deno.test("static: hashed build files and asset() URLs are immutable", async () => {
  await withStatic({}, async (get) => {
    const chunk = await get("/build/island-Counter-BBBB2222.js");
    assert.equal(chunk?.headers.get("cache-control"), IMMUTABLE);
    assert.equal(chunk?.headers.get("content-type"), "text/javascript; charset=utf-8");
    await chunk?.body?.cancel();
    const sdk = await get("/build/sdk/playhead-ABCD1234.js");
    assert.equal(sdk?.headers.get("cache-control"), IMMUTABLE, "other builds' hashed names too");
    await sdk?.body?.cancel();
    const stable = await get("/build/sdk/playhead.js");
    assert.equal(stable?.headers.get("cache-control"), REVALIDATE, "unhashed names revalidate");
    await stable?.body?.cancel();
    const busted = await get("/styles.css?__frsh_c=abc");
    assert.equal(busted?.headers.get("cache-control"), IMMUTABLE);
    await busted?.body?.cancel();
  });
});

Deno.test("static: development revalidates every time", async () => {
  await withStatic({ dev: true }, async (get) => {
    const res = await get("/hello.txt");
    assert.equal(res?.headers.get("cache-control"), "no-cache");
    await res?.body?.cancel();
  });
});

Deno.test("static: HEAD has headers and no body", async () => {
  await withStatic({}, async (get) => {
    const res = await get("/hello.txt", { method: "HEAD" });
    assert.equal(res?.status, 200);
    assert.equal(res?.headers.get("content-length"), "13");
    assert.equal(res?.body, null);
  });
});

Deno.test("static: misses, other methods, folders and traversal fall through as null", async () => {
  await withStatic({}, async (get) => {
    assert.equal(await get("/nope.txt"), null);
    assert.equal(await get("/hello.txt", { method: "POST" }), null);
    assert.equal(await get("/"), null);
    assert.equal(await get("/%2e%2e/static_test.ts"), null);
    assert.equal(await get("/..%2fstatic_test.ts"), null);
    assert.equal(await get("/build/..%2F..%2Fhelpers.ts"), null);
    assert.equal(await get("/.hidden"), null);
  });
});

Deno.test("static: under a basePath only prefixed URLs are served", async () => {
  await withStatic({ basePath: "/app" }, async (get) => {
    assert.equal(await get("/hello.txt"), null);
    const res = await get("/app/hello.txt");
    assert.equal(res?.status, 200);
    await res?.body?.cancel();
  });
});
