// ARCHITECTURE.md's layer table ("Which folder imports which") held against the code: the imports
// of every file are parsed and checked against the table as written there, so the map cannot
// drift; and every application file opens with its purpose line.
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import {
  arrowsOf,
  folderOrders,
  islandProblems,
  layerOf,
  layerProblems,
  layerTable,
  reachedFrom,
} from "@/tests/helpers/layer_map.ts";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));
/** Not the project's code: what .gitignore names (dependencies, build output, local data). */
const SKIPPED = new Set([
  ".git",
  ...(await Deno.readTextFile(join(ROOT, ".gitignore"))).split("\n")
    .map((line) => line.trim().replace(/^\/|\/$/g, ""))
    .filter((line) => line && !line.startsWith("#")),
]);

async function* sourceFiles(dir = ""): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(ROOT, dir) || ".")) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (SKIPPED.has(path)) continue;
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

async function repository(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const file of sourceFiles()) {
    files.set(file, await Deno.readTextFile(join(ROOT, file)));
  }
  return files;
}

const architecture = await Deno.readTextFile(join(ROOT, "ARCHITECTURE.md"));
const table = layerTable(architecture);
const orders = folderOrders(architecture);

Deno.test("layers: every import is one ARCHITECTURE.md's table allows, and the table allows no more", async () => {
  const files = await repository();
  assert.ok(files.size > 300, `only ${files.size} files found under ${ROOT}`);
  assert.deepEqual(layerProblems(table, orders, files), []);
});

Deno.test("layers: a core/ file importing http/ (or a component importing http/ code) breaks the table", async () => {
  const files = await repository();
  const core = [...files.keys()].find((file) =>
    file.startsWith("core/") && !file.includes("_test")
  )!;
  const broken = new Map(files);
  broken.set(core, `import { readWire } from "@/http/body.ts";\n${files.get(core)}`);
  assert.deepEqual(layerProblems(table, orders, broken), [
    `${core} imports http/body.ts: core/ may not import http/`,
  ]);
  // Types only: a component may name http/'s types, never run its code.
  const component = "components/ui/Notice.tsx";
  const running = new Map(files);
  running.set(
    component,
    files.get(component)!.replace("import type { FormFailure }", "import { FormFailure }"),
  );
  assert.deepEqual(layerProblems(table, orders, running), [
    `${component} imports http/forms.ts: components/ may not import http/`,
  ]);
});

Deno.test("layers: the parser reads every import form the code uses, and worker and file URLs", () => {
  const source = [
    'import { a } from "./a.ts";',
    'import type { B } from "@/core/b.ts";',
    "import {\n  c,\n  type D,\n} from '../c.ts';",
    'export { e } from "@/db/e.ts";',
    'import "@/http/side_effect.ts";',
    'import json from "../deno.json" with { type: "json" };',
    'const lazy = await import("@/player/lazy.ts");',
    'import type { F } from "$fresh/server.ts";',
    'import { z } from "zod";',
    'import { gzipSync } from "node:zlib";',
    'const worker = new URL("./frame_worker.ts", import.meta.url);',
    "const css = new URL(`../../static/${name}`, import.meta.url);",
    'const root = new URL("../../", import.meta.url);',
  ].join("\n");
  const arrow = (target: string, typeOnly = false, climbs = false) => ({
    file: "core/x/y.ts",
    target,
    typeOnly,
    climbs,
  });
  assert.deepEqual(arrowsOf("core/x/y.ts", source), [
    arrow("core/x/a.ts"),
    arrow("core/b.ts", true),
    arrow("core/c.ts", false, true),
    arrow("db/e.ts"),
    arrow("http/side_effect.ts"),
    arrow("core/deno.json", false, true),
    arrow("fresh/server.ts", true),
    arrow("player/lazy.ts"),
    arrow("core/x/frame_worker.ts"),
    arrow("static/"),
  ]);
  assert.equal(layerOf("config.ts"), "config/");
  assert.equal(layerOf("config/env.ts"), "config/");
  assert.equal(layerOf("log.ts"), "log.ts");
});

Deno.test("layers: ../ imports, a worker URL across layers and a root module without a row break it", async () => {
  const files = await repository();
  const core = [...files.keys()].find((f) =>
    /^core\/[a-z_]+\/[a-z_]+\.ts$/.test(f) && !f.includes("_test")
  )!;
  const climbing = new Map(files);
  climbing.set(core, `import { ids } from "../ids.ts";\n${files.get(core)}`);
  assert.deepEqual(layerProblems(table, orders, climbing), [
    `${core} imports core/ids.ts by climbing with ../: name it with @/`,
  ]);
  const worker = new Map(files);
  worker.set(
    core,
    `const w = new URL("../../api/x_worker.ts", import.meta.url);\n${files.get(core)}`,
  );
  assert.deepEqual(layerProblems(table, orders, worker), [
    `${core} imports api/x_worker.ts: core/ may not import api/`,
  ]);
  const rootless = new Map(files);
  rootless.set("tools.ts", "// a root module nobody mapped\nexport const x = 1;\n");
  assert.deepEqual(layerProblems(table, orders, rootless), [
    "tools.ts: tools.ts has no row in the layer table",
  ]);
});

Deno.test("layers: inside a folder, a sub-folder importing one above it breaks the order", async () => {
  const files = await repository();
  assert.ok(orders.size > 0, "ARCHITECTURE.md orders no folder's sub-folders");
  for (const [folder, order] of orders) {
    const bottom = order.at(-1)!;
    const top = order[0];
    const at = (room: string) =>
      [...files.keys()].find((f) =>
        f.startsWith(folder) && !f.endsWith("_test.ts") &&
        (room === "(root)" ? f.split("/").length === 2 : f.startsWith(`${folder}${room}`))
      )!;
    const [low, high] = [at(bottom), at(top)];
    assert.ok(low && high, `${folder}: no file in ${bottom} or ${top}`);
    const broken = new Map(files);
    broken.set(low, `import { x } from "@/${high}";\n${files.get(low)}`);
    assert.deepEqual(layerProblems(table, orders, broken), [
      `${low} imports ${high}: ${folder}${top} is above ${folder}${bottom}`,
    ]);
  }
});

Deno.test("layers: islands reach only code that runs in a browser", async () => {
  const files = await repository();
  assert.deepEqual(islandProblems(files), []);
  // An island that opens the database, or a rule module of core/ it uses that reads a file.
  const island = "islands/ReplayPlayer.tsx";
  const broken = new Map(files);
  broken.set(island, `import { openDb } from "@/db/client.ts";\n${files.get(island)}`);
  assert.ok(islandProblems(broken).some((p) => p.startsWith("db/client.ts, which is in db/")));
  // A player module no island reaches yet is held to it too.
  const player = "player/play/speeds.ts";
  const zlib = new Map(files);
  zlib.set(player, `import { gzipSync } from "node:zlib";\n${files.get(player)}`);
  assert.ok(
    islandProblems(zlib).includes(
      `${player}, which imports node:zlib, is in the bundle of ${player}`,
    ),
  );
  const rules = reachedFrom(files, island).find((f) => f.startsWith("core/"));
  assert.ok(rules, `${island} uses no rule of core/`);
  const reading = new Map(files);
  reading.set(rules, `${files.get(rules)}\nexport const x = Deno.readTextFileSync("x");\n`);
  assert.ok(
    islandProblems(reading).includes(`${rules}, which calls Deno, is in the bundle of ${island}`),
    "an island reaching a core/ rule that reads a file",
  );
});

Deno.test("layers: every application file opens with a line on what it is for", async () => {
  const missing = [...(await repository())]
    .filter(([file]) =>
      !file.endsWith("_test.ts") && !file.startsWith("fresh/testdata/") && file !== "fresh.gen.ts"
    )
    .filter(([, source]) => !/^(\/\/|\/\*)/.test(source))
    .map(([file]) => file);
  assert.deepEqual(missing, []);
});

Deno.test("layers: every table row names a folder or root module that exists", async () => {
  for (const layer of table.keys()) {
    if (layer === "(root)") continue;
    const path = layer === "config/" ? "config.ts" : layer;
    assert.ok(await Deno.stat(join(ROOT, path)).catch(() => null), `${layer} is not there`);
  }
});
