// Compressed responses through the whole app: dynamic JSON and pages per request, the SDK and the
// islands precompressed by the build, and what must never be compressed (ingest, the events stream).
import assert from "node:assert/strict";
import { basename } from "node:path";
import zlib from "node:zlib";
import { sdkAssets } from "@/api/service/sdk_assets.ts";
import { precompressFiles } from "@/fresh/precompress.ts";
import { createPageHandler, createStaticHandler } from "@/fresh/server.ts";
import manifest from "@/fresh.gen.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { insertBatch, insertSession } from "@/tests/helpers/sessions_factories.ts";

const ISLAND = "island-HealthStatus-AAAA1111.js";
const SDK = "playhead-ABCD1234.js";
const SCRIPT = `(()=>{${"const playhead = 'recording';".repeat(200)}})();\n`;

/** The app as main.ts assembles it, on a small build with precompressed files. */
async function compressionApp() {
  const buildDir = await Deno.makeTempDir({ prefix: "compression-build-" });
  await Deno.mkdir(`${buildDir}/sdk`);
  // Every island points at one file: the pages only need the names to exist.
  const islands = Object.fromEntries(
    Object.keys(manifest.islands).map((key) => [basename(key).replace(/\.tsx?$/, ""), ISLAND]),
  );
  await Deno.writeTextFile(`${buildDir}/${ISLAND}`, SCRIPT);
  await Deno.writeTextFile(`${buildDir}/sdk/${SDK}`, SCRIPT);
  await Deno.writeTextFile(
    `${buildDir}/manifest.json`,
    JSON.stringify({ buildId: "t", boot: ISLAND, islands, imports: {}, files: [ISLAND] }),
  );
  await Deno.writeTextFile(
    `${buildDir}/sdk/manifest.json`,
    JSON.stringify({ classic: SDK, esm: SDK, integrity: {} }),
  );
  await precompressFiles([`${buildDir}/${ISLAND}`, `${buildDir}/sdk/${SDK}`]);
  const pages = await createPageHandler(manifest, { staticDir: "static", buildDir });
  const t = await createTestApp({}, {
    staticFiles: createStaticHandler({ staticDir: "static", buildDir }),
    mounts: [sdkAssets({ dir: `${buildDir}/sdk` })],
    pages,
  });
  return {
    ...t,
    [Symbol.asyncDispose]: async () => {
      await t[Symbol.asyncDispose]();
      await Deno.remove(buildDir, { recursive: true });
    },
  };
}

function decode(encoding: string | null, wire: Uint8Array): string {
  const bytes = encoding === "br"
    ? zlib.brotliDecompressSync(wire)
    : encoding === "gzip"
    ? zlib.gunzipSync(wire)
    : wire;
  return new TextDecoder().decode(bytes);
}

/** The same path fetched as identity, br and gzip: each coding decodes to the identity bytes. */
async function assertNegotiated(
  get: (path: string, headers: Record<string, string>) => Promise<Response>,
  path: string,
  contentType: RegExp,
) {
  const plain = await get(path, {});
  assert.equal(plain.status, 200, path);
  assert.match(plain.headers.get("content-type")!, contentType);
  assert.equal(plain.headers.get("content-encoding"), null);
  const original = await plain.text();
  assert.ok(original.length > 1024, `${path} is large enough to compress`);
  for (const encoding of ["br", "gzip"]) {
    const res = await get(path, { "Accept-Encoding": `${encoding}, identity` });
    assert.equal(res.status, 200, `${path} ${encoding}`);
    assert.match(res.headers.get("content-type")!, contentType);
    assert.equal(res.headers.get("content-encoding"), encoding, `${path} in ${encoding}`);
    assert.match(res.headers.get("vary") ?? "", /Accept-Encoding/);
    const wire = new Uint8Array(await res.arrayBuffer());
    const length = res.headers.get("content-length");
    if (length) assert.equal(length, String(wire.length));
    assert.ok(wire.length < original.length, `${path} in ${encoding} is smaller`);
    assert.equal(
      decode(encoding, wire),
      original,
      `${path} in ${encoding} decodes to the original`,
    );
  }
}

Deno.test("compression: openapi.json, a page, an island and the SDK in br and gzip, decoded exactly once", async () => {
  await using t = await compressionApp();
  const get = async (path: string, headers: Record<string, string>) =>
    await t.app.request(path, { headers });
  await assertNegotiated(get, "/api/openapi.json", /^application\/json/);
  await assertNegotiated(get, "/", /^text\/html/);
  await assertNegotiated(get, "/styles.css", /^text\/css/);
  await assertNegotiated(get, `/build/${ISLAND}`, /^text\/javascript/);
  await assertNegotiated(get, "/sdk/v1/playhead.js", /^text\/javascript/);
});

Deno.test("compression: a compressed file keeps revalidating with its ETag", async () => {
  await using t = await compressionApp();
  const headers = { "Accept-Encoding": "br" };
  const first = await t.app.request("/styles.css", { headers });
  await first.body?.cancel();
  assert.equal(first.headers.get("content-encoding"), "br");
  const etag = first.headers.get("etag")!;
  assert.match(etag, /^W\//);
  const again = await t.app.request("/styles.css", {
    headers: { ...headers, "If-None-Match": etag },
  });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get("content-encoding"), null);
});

Deno.test("compression: HEAD, small bodies and clients without Accept-Encoding get identity", async () => {
  await using t = await compressionApp();
  const head = await t.app.request("/", { method: "HEAD", headers: { "Accept-Encoding": "br" } });
  assert.equal(head.headers.get("content-encoding"), null);
  const small = await t.app.request("/api/no-such-thing", { headers: { "Accept-Encoding": "br" } });
  assert.equal(small.status, 404);
  assert.equal(small.headers.get("content-encoding"), null);
  assert.equal((await small.json()).kind, "not_found");
  const refused = await t.app.request("/api/openapi.json", {
    headers: { "Accept-Encoding": "br;q=0, gzip;q=0" },
  });
  assert.equal(refused.headers.get("content-encoding"), null);
  assert.equal((await refused.json()).openapi.startsWith("3."), true);
});

Deno.test("compression: ingest's answers and the events stream are never compressed", async () => {
  await using t = await compressionApp();
  const w = await sessionsWorld(t);
  const accept = { "Accept-Encoding": "gzip, deflate, br" };
  const ok = await postIngest(t.app, {
    sessionId: crypto.randomUUID(),
    events: recordedEvents(3),
    metadata: METADATA,
  }, { key: w.alpha.key, headers: accept });
  assert.equal(ok.status, 204);
  assert.equal(ok.headers.get("content-encoding"), null);
  const invalid = await postIngest(t.app, { sessionId: "x".repeat(2000), events: [] }, {
    key: w.alpha.key,
    headers: accept,
  });
  assert.equal(invalid.status, 400);
  assert.equal(invalid.headers.get("content-encoding"), null);
  await invalid.body?.cancel();

  const session = await insertSession(w.db, w.alpha);
  for (let i = 0; i < 20; i++) await insertBatch(w.db, session, recordedEvents(50, 1e12 + i * 1e5));
  const events = await call(t.app, "GET", `/api/sessions/${session.id}/events`, {
    cookie: w.me.cookie,
    headers: accept,
  });
  assert.equal(events.status, 200);
  assert.equal(events.headers.get("content-encoding"), null);
  const body = await events.json();
  assert.equal(body.batches.length, 20);
  assert.equal(body.nextCursor, null);
});
