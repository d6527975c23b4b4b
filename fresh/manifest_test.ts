import assert from "node:assert/strict";
import { listModules, manifestSource, writeManifest } from "./manifest.ts";
import { FIXTURE_DIR } from "./testdata/helpers.ts";

Deno.test("manifest: the committed fixture manifest is what generation produces", async () => {
  const routes = await listModules(FIXTURE_DIR, "routes");
  const islands = await listModules(FIXTURE_DIR, "islands");
  const generated = manifestSource(routes, islands, "$fresh/server.ts");
  assert.equal(generated, await Deno.readTextFile(`${FIXTURE_DIR}/fresh.gen.ts`));
});

Deno.test("manifest: lists routes and islands sorted, skipping tests and dotfiles", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fresh-manifest-" });
  try {
    await Deno.mkdir(`${dir}/routes/[id]`, { recursive: true });
    await Deno.mkdir(`${dir}/islands`);
    for (const file of ["routes/index.tsx", "routes/[id]/edit.tsx", "routes/index_test.ts"]) {
      await Deno.writeTextFile(`${dir}/${file}`, "");
    }
    await Deno.writeTextFile(`${dir}/routes/.hidden.ts`, "");
    await Deno.writeTextFile(`${dir}/islands/Clock.tsx`, "");
    assert.equal(await writeManifest(dir), true);
    const source = await Deno.readTextFile(`${dir}/fresh.gen.ts`);
    assert.match(source, /import \* as \$_id__edit from "\.\/routes\/\[id\]\/edit\.tsx";/);
    assert.match(source, /"\.\/islands\/Clock\.tsx": \$Clock,/);
    assert.doesNotMatch(source, /index_test|hidden/);
    assert.equal(await writeManifest(dir), false, "an unchanged tree rewrites nothing");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("manifest: generated source is already deno fmt formatted", async () => {
  await assertFormatted(await Deno.readTextFile(`${FIXTURE_DIR}/fresh.gen.ts`));
});

Deno.test("manifest: an entry longer than the line width is broken as deno fmt breaks it", async () => {
  const route = "./routes/(dashboard)/settings/organization/a_rather_long_page_name.tsx";
  const source = manifestSource([route], [], "$fresh/server.ts");
  assert.ok(source.includes(`    "${route}":\n      $_dashboard__settings_organization_`));
  await assertFormatted(source);
});

async function assertFormatted(source: string) {
  const dir = await Deno.makeTempDir({ prefix: "fresh-manifest-" });
  try {
    const path = `${dir}/fresh.gen.ts`;
    await Deno.writeTextFile(path, source);
    const fmt = new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--check", "--line-width=100", path],
      stdout: "null",
      stderr: "piped",
    });
    const { code, stderr } = await fmt.output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
