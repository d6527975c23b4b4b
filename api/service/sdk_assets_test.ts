import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import { buildSdk } from "@/sdk/build/build.ts";
import { sdkAssets } from "./sdk_assets.ts";

Deno.test("sdk assets: stable and hashed URLs serve the built SDK with CORS and caching", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const built = await buildSdk({ outDir: dir, dev: false });
    assert.match(built.classic, /^playhead-[A-Za-z0-9]+\.js$/);
    assert.match(built.esm, /^playhead-[A-Za-z0-9]+\.mjs$/);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
    assert.equal(manifest.classic, built.classic);
    assert.match(manifest.integrity[built.classic], /^sha384-/);

    const app = sdkAssets({ dir });
    const classic = await app.request("/sdk/v1/playhead.js");
    assert.equal(classic.status, 200);
    assert.equal(classic.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(classic.headers.get("access-control-allow-origin"), "*");
    assert.equal(classic.headers.get("cross-origin-resource-policy"), "cross-origin");
    assert.match(classic.headers.get("cache-control")!, /max-age=300/);
    const text = await classic.text();
    assert.match(text, /var Playhead=/);
    assert.equal(text, await Deno.readTextFile(`${dir}/${built.classic}`));

    const etag = classic.headers.get("etag")!;
    const revalidated = await app.request("/sdk/v1/playhead.js", {
      headers: { "If-None-Match": etag },
    });
    assert.equal(revalidated.status, 304);

    const esm = await app.request("/sdk/v1/playhead.mjs");
    assert.equal(esm.status, 200);
    assert.match(await esm.text(), /export\{/);

    const hashed = await app.request(`/sdk/${built.classic}`);
    assert.equal(hashed.status, 200);
    assert.match(hashed.headers.get("cache-control")!, /immutable/);
    assert.equal(hashed.headers.get("access-control-allow-origin"), "*");
    await hashed.body?.cancel();

    // The unload compressor is its own module: the entry names it and leaves its code out.
    const deflate = manifest.lazy.deflate;
    assert.match(deflate, /^playhead-deflate-[A-Za-z0-9]+\.mjs$/);
    const module = await app.request(`/sdk/${deflate}`);
    assert.equal(module.status, 200);
    assert.match(module.headers.get("cache-control")!, /immutable/);
    assert.equal(module.headers.get("access-control-allow-origin"), "*");
    const moduleText = await module.text();
    assert.match(moduleText, /export\{/);
    assert.ok(text.includes(deflate), "the classic script names the module");
    // gzip's CRC-32 polynomial (0xEDB88320 as a signed int) marks the compressor's code.
    const CRC_POLYNOMIAL = "-306674912";
    assert.ok(moduleText.includes(CRC_POLYNOMIAL));
    assert.ok(!text.includes(CRC_POLYNOMIAL), "the classic script leaves the compressor out");
    // The network bundle too: named in the entry, imported only when a project records requests.
    const network = manifest.lazy.network;
    assert.match(network, /^playhead-network-[A-Za-z0-9]+\.mjs$/);
    assert.ok(text.includes(network), "the classic script names the network bundle");
    const networkModule = await app.request(`/sdk/${network}`);
    assert.equal(networkModule.status, 200);
    assert.match(await networkModule.text(), /export\{/);

    assert.equal((await app.request("/sdk/manifest.json")).status, 404);
    assert.equal((await app.request("/sdk/playhead-NOPE.js")).status, 404);
  } finally {
    await esbuild.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sdk assets: before a build the stable URL answers 503 JSON", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const res = await sdkAssets({ dir }).request("/sdk/v1/playhead.js");
    assert.equal(res.status, 503);
    assert.equal((await res.json()).kind, "unavailable");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
