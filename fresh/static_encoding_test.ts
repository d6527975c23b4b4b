import assert from "node:assert/strict";
import zlib from "node:zlib";
import { precompressFiles } from "./precompress.ts";
import { createStaticHandler } from "./static.ts";
import { fakeBuildDir, FIXTURE_STATIC } from "./testdata/helpers.ts";

const ISLAND = "island-Counter-BBBB2222.js";
const SOURCE = `export const text = "${"counter ".repeat(500)}";\n`;

async function withPrecompressedBuild(
  fn: (get: (path: string, headers?: HeadersInit) => Promise<Response>, dir: string) => unknown,
) {
  const buildDir = await fakeBuildDir();
  try {
    await Deno.writeTextFile(`${buildDir}/${ISLAND}`, SOURCE);
    await precompressFiles([`${buildDir}/${ISLAND}`]);
    const serve = createStaticHandler({ staticDir: FIXTURE_STATIC, buildDir });
    await fn(async (path, headers) => {
      const res = await serve(new Request(`http://localhost${path}`, { headers }));
      assert.ok(res, `${path} is served`);
      return res;
    }, buildDir);
  } finally {
    await Deno.remove(buildDir, { recursive: true });
  }
}

const decode: Record<string, (b: Uint8Array) => Uint8Array> = {
  br: (b) => zlib.brotliDecompressSync(b),
  gzip: (b) => zlib.gunzipSync(b),
};

Deno.test("static: a built island goes out as its precompressed br or gz sibling", async () => {
  await withPrecompressedBuild(async (get) => {
    const etags = new Set<string>();
    for (const encoding of ["br", "gzip"]) {
      const res = await get(`/build/${ISLAND}`, {
        "accept-encoding": `gzip, deflate, ${encoding}`,
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
      const wire = new Uint8Array(await res.arrayBuffer());
      const expected = encoding === "gzip" ? "gzip" : "br";
      assert.equal(res.headers.get("content-encoding"), expected);
      assert.equal(res.headers.get("vary"), "Accept-Encoding");
      assert.equal(res.headers.get("content-length"), String(wire.length));
      assert.ok(wire.length < SOURCE.length / 5, `${expected} is much smaller than the source`);
      assert.equal(new TextDecoder().decode(decode[expected](wire)), SOURCE);
      etags.add(res.headers.get("etag")!);
    }
    const plain = await get(`/build/${ISLAND}`);
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.equal(plain.headers.get("vary"), "Accept-Encoding");
    assert.equal(await plain.text(), SOURCE);
    etags.add(plain.headers.get("etag")!);
    assert.equal(etags.size, 3, "each coding has its own ETag");
  });
});

Deno.test("static: If-None-Match revalidates the variant the client holds", async () => {
  await withPrecompressedBuild(async (get) => {
    const br = await get(`/build/${ISLAND}`, { "accept-encoding": "br" });
    await br.body?.cancel();
    const etag = br.headers.get("etag")!;
    const again = await get(`/build/${ISLAND}`, { "accept-encoding": "br", "if-none-match": etag });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get("content-encoding"), "br");
    const other = await get(`/build/${ISLAND}`, {
      "accept-encoding": "gzip",
      "if-none-match": etag,
    });
    assert.equal(other.status, 200, "a br ETag does not validate the gzip variant");
    await other.body?.cancel();
  });
});

Deno.test("static: a missing sibling falls back to the next coding, then to the file", async () => {
  await withPrecompressedBuild(async (get, dir) => {
    await Deno.remove(`${dir}/${ISLAND}.br`);
    const res = await get(`/build/${ISLAND}`, { "accept-encoding": "br, gzip" });
    assert.equal(res.headers.get("content-encoding"), "gzip");
    assert.equal(new TextDecoder().decode(zlib.gunzipSync(await res.bytes())), SOURCE);
    const brOnly = await get(`/build/${ISLAND}`, { "accept-encoding": "br" });
    assert.equal(brOnly.headers.get("content-encoding"), null);
    assert.equal(await brOnly.text(), SOURCE);
  });
});

Deno.test("static: HEAD of a variant has its headers and length, no body", async () => {
  await withPrecompressedBuild(async (get, dir) => {
    const res = await get(`/build/${ISLAND}`, { "accept-encoding": "br" });
    const head = await createStaticHandler({ staticDir: FIXTURE_STATIC, buildDir: dir })(
      new Request(`http://localhost/build/${ISLAND}`, {
        method: "HEAD",
        headers: { "accept-encoding": "br" },
      }),
    );
    assert.equal(head?.body, null);
    assert.equal(head?.headers.get("content-encoding"), "br");
    assert.equal(head?.headers.get("content-length"), String((await res.bytes()).length));
  });
});

Deno.test("static: files outside the build are not negotiated here", async () => {
  await withPrecompressedBuild(async (get) => {
    const res = await get("/styles.css", { "accept-encoding": "br" });
    assert.equal(res.headers.get("content-encoding"), null);
    assert.equal(res.headers.get("vary"), null);
    await res.body?.cancel();
  });
});
