import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import zlib from "node:zlib";
import { buildSdk } from "@/sdk/build/build.ts";
import { sdkAssets } from "./sdk_assets.ts";

const decode: Record<string, (b: Uint8Array) => Uint8Array> = {
  br: (b) => new Uint8Array(zlib.brotliDecompressSync(b)),
  gzip: (b) => new Uint8Array(zlib.gunzipSync(b)),
};

Deno.test("sdk assets: the SDK goes out precompressed as the client accepts, one ETag per coding", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const built = await buildSdk({ outDir: dir, dev: false });
    const app = sdkAssets({ dir });
    for (
      const [path, file] of [["/sdk/v1/playhead.js", built.classic], [
        "/sdk/v1/playhead.mjs",
        built.esm,
      ], [`/sdk/${built.classic}`, built.classic]]
    ) {
      const original = await Deno.readFile(`${dir}/${file}`);
      const etags = new Set<string>();
      for (const encoding of ["br", "gzip"]) {
        const res = await app.request(path, { headers: { "Accept-Encoding": encoding } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
        assert.equal(res.headers.get("content-encoding"), encoding);
        assert.equal(res.headers.get("vary"), "Accept-Encoding");
        assert.equal(res.headers.get("access-control-allow-origin"), "*");
        const wire = new Uint8Array(await res.arrayBuffer());
        assert.ok(wire.length < original.length / 2, `${path} in ${encoding} is compressed`);
        assert.deepEqual(decode[encoding](wire), original);
        etags.add(res.headers.get("etag")!);
      }
      const plain = await app.request(path);
      assert.equal(plain.headers.get("content-encoding"), null);
      assert.equal(plain.headers.get("vary"), "Accept-Encoding");
      assert.deepEqual(new Uint8Array(await plain.arrayBuffer()), original);
      etags.add(plain.headers.get("etag")!);
      assert.equal(etags.size, 3, `${path}: distinct ETags for br, gzip and identity`);
    }

    // Browsers send every coding they take; brotli wins, and its ETag revalidates it.
    const accept = "gzip, deflate, br, zstd";
    const first = await app.request("/sdk/v1/playhead.js", {
      headers: { "Accept-Encoding": accept },
    });
    assert.equal(first.headers.get("content-encoding"), "br");
    await first.body?.cancel();
    const etag = first.headers.get("etag")!;
    const again = await app.request("/sdk/v1/playhead.js", {
      headers: { "Accept-Encoding": accept, "If-None-Match": etag },
    });
    assert.equal(again.status, 304);
    const gzipOnly = await app.request("/sdk/v1/playhead.js", {
      headers: { "Accept-Encoding": "gzip", "If-None-Match": etag },
    });
    assert.equal(gzipOnly.status, 200, "the br ETag does not validate the gzip bytes");
    await gzipOnly.body?.cancel();
  } finally {
    await esbuild.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sdk assets: a rebuild removes the old bundles' .br and .gz with them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/playhead-OLDOLD12.js`, "old");
    await Deno.writeTextFile(`${dir}/playhead-OLDOLD12.js.br`, "old");
    await Deno.writeTextFile(`${dir}/playhead-OLDOLD12.js.gz`, "old");
    await Deno.writeTextFile(`${dir}/playhead-deflate-OLDOLD12.mjs`, "old");
    await Deno.writeTextFile(`${dir}/playhead-network-OLDOLD12.mjs`, "old");
    await Deno.writeTextFile(`${dir}/playhead-network-OLDOLD12.mjs.gz`, "old");
    const built = await buildSdk({ outDir: dir, dev: true });
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assert.deepEqual(
      names.sort(),
      [
        built.classic,
        `${built.classic}.br`,
        `${built.classic}.gz`,
        built.esm,
        `${built.esm}.br`,
        `${built.esm}.gz`,
        built.lazy.deflate,
        `${built.lazy.deflate}.br`,
        `${built.lazy.deflate}.gz`,
        built.lazy.journal,
        `${built.lazy.journal}.br`,
        `${built.lazy.journal}.gz`,
        built.lazy.network,
        `${built.lazy.network}.br`,
        `${built.lazy.network}.gz`,
        "manifest.json",
      ].sort(),
    );
  } finally {
    await esbuild.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
