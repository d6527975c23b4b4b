import assert from "node:assert/strict";
import { buildIslands } from "./build.ts";
import { createStaticHandler, IMMUTABLE } from "./static.ts";
import { FIXTURE_DIR, FIXTURE_STATIC } from "./testdata/helpers.ts";

const HASHED = /-[A-Z0-9]{8}\.js$/;

Deno.test("build: islands become content-hashed, code-split ESM with a manifest", async () => {
  const buildDir = await Deno.makeTempDir({ prefix: "fresh-build-" });
  try {
    const manifest = await buildIslands({
      rootDir: FIXTURE_DIR,
      islands: ["./islands/Counter.tsx"],
      buildDir,
    });
    assert.match(manifest.boot, /^fresh-boot-[A-Z0-9]{8}\.js$/);
    assert.match(manifest.islands.Counter, /^island-Counter-[A-Z0-9]{8}\.js$/);
    assert.ok(manifest.files.every((f) => HASHED.test(f)), manifest.files.join());
    // Preact is shared by the boot script and the island through one chunk.
    const shared = manifest.imports[manifest.islands.Counter];
    assert.ok(
      shared.length > 0 && shared.every((f) => manifest.imports[manifest.boot].includes(f)),
    );
    const written = JSON.parse(await Deno.readTextFile(`${buildDir}/manifest.json`));
    assert.deepEqual(written, manifest);

    const island = await Deno.readTextFile(`${buildDir}/${manifest.islands.Counter}`);
    assert.doesNotMatch(island, /from\s*"(preact|npm:|\$fresh)/, "bare imports are bundled");
    assert.ok(!island.includes("\n  "), "production output is minified");

    // Same input, same names; a rebuild leaves no stale files behind; each file is precompressed.
    const again = await buildIslands({
      rootDir: FIXTURE_DIR,
      islands: ["./islands/Counter.tsx"],
      buildDir,
    });
    assert.deepEqual(again, manifest);
    const onDisk = [...Deno.readDirSync(buildDir)].map((e) => e.name).sort();
    const variants = manifest.files.flatMap((f) => [f, `${f}.br`, `${f}.gz`]);
    assert.deepEqual(onDisk, [...variants, "manifest.json"].sort());
  } finally {
    await Deno.remove(buildDir, { recursive: true });
  }
});

Deno.test("build: built chunks are served immutable, the manifest is not", async () => {
  const buildDir = await Deno.makeTempDir({ prefix: "fresh-build-" });
  try {
    const manifest = await buildIslands({
      rootDir: FIXTURE_DIR,
      islands: ["./islands/Counter.tsx"],
      buildDir,
      dev: true,
    });
    const serve = createStaticHandler({ staticDir: FIXTURE_STATIC, buildDir });
    const res = await serve(new Request(`http://localhost/build/${manifest.islands.Counter}`));
    assert.ok(res);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), IMMUTABLE);
    assert.match(await res.text(), /sourceMappingURL=data:/, "dev builds carry source maps");
    const meta = await serve(new Request("http://localhost/build/manifest.json"));
    assert.ok(meta);
    assert.notEqual(meta.headers.get("cache-control"), IMMUTABLE);
    await meta.body?.cancel();
  } finally {
    await Deno.remove(buildDir, { recursive: true });
  }
});
