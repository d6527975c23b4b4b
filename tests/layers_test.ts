// ARCHITECTURE.md's layer table ("Which folder imports which") held against the code: the imports
// of every file are parsed and checked against the table as written there, so the map cannot
// drift; and every application file opens with its purpose line.
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));
/** Not the project's code: what .gitignore names (dependencies, build output, local data). */
const SKIPPED = new Set([
  ".git",
  ...(await Deno.readTextFile(join(ROOT, ".gitignore"))).split("\n")
    .map((line) => line.trim().replace(/^\/|\/$/g, ""))
    .filter((line) => line && !line.startsWith("#")),
]);

interface Row {
  /** `null`: anything. */
  imports: Set<string> | null;
  types: Set<string>;
}

/** The table under "Which folder imports which": folder → what it may import. */
export function layerTable(markdown: string): Map<string, Row> {
  const section = markdown.split(/^### Which folder imports which$/m)[1]?.split(/^#/m)[0];
  assert.ok(section, "ARCHITECTURE.md has no section “Which folder imports which”");
  const table = new Map<string, Row>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    const folder = cells[0]?.match(/^`([^`]+)`$/)?.[1];
    if (!folder) continue;
    const names = (cell = "") => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    table.set(folder, {
      imports: names(cells[1])[0] === "*" ? null : new Set(names(cells[1])),
      types: new Set(names(cells[2])),
    });
  }
  return table;
}

interface Import {
  file: string;
  target: string;
  typeOnly: boolean;
}

const STATIC = /^[ \t]*(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s*)?["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The repository paths `file` (a repository path) imports; npm and node: imports are not ours. */
export function importsOf(file: string, source: string): Import[] {
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const target = resolve(file, specifier);
    if (target !== null) found.push({ file, target, typeOnly });
  };
  for (const m of source.matchAll(STATIC)) add(m[2], Boolean(m[1]));
  for (const m of source.matchAll(DYNAMIC)) add(m[1], false);
  return found;
}

function resolve(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return normalize(specifier.slice(2));
  if (specifier.startsWith("$fresh/")) return normalize(join("fresh", specifier.slice(7)));
  if (specifier.startsWith(".")) return normalize(join(dirname(file), specifier));
  return null;
}

/** The table's name for where a repository path lives: `core/`, `config/`, `log.ts`, `(root)`. */
export function layerOf(path: string): string {
  const [first, ...rest] = path.split("/");
  if (rest.length) return `${first}/`;
  return first === "config.ts" ? "config/" : first;
}

async function* sourceFiles(dir = ""): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(ROOT, dir) || ".")) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (SKIPPED.has(path)) continue;
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Every import of the repository that the table does not allow, and the allowances never used. */
export function layerProblems(
  table: Map<string, Row>,
  files: Map<string, string>,
): string[] {
  const problems: string[] = [];
  const used = new Set<string>();
  const rowOf = (file: string) => {
    const layer = file.includes("/") ? layerOf(file) : "(root)";
    return { layer, row: table.get(layer) };
  };
  for (const file of files.keys()) {
    const { layer, row } = rowOf(file);
    if (!row) problems.push(`${file}: its folder ${layer} has no row in the layer table`);
  }
  for (const [file, source] of files) {
    const { layer, row } = rowOf(file);
    if (!row) continue;
    for (const { target, typeOnly } of importsOf(file, source)) {
      const to = layerOf(target);
      if (to === layer || row.imports === null) continue;
      const unitTestHelper = file.endsWith("_test.ts") && target.startsWith("tests/helpers/");
      if (row.imports.has(to)) used.add(`${layer} ${to}`);
      else if (typeOnly && row.types.has(to)) used.add(`${layer} ${to} types`);
      else if (!unitTestHelper) {
        problems.push(`${file} imports ${target}: ${layer} may not import ${to}`);
      }
    }
  }
  for (const [layer, row] of table) {
    for (const to of row.imports ?? []) {
      if (!used.has(`${layer} ${to}`)) {
        problems.push(`the table lets ${layer} import ${to}: none does`);
      }
    }
    for (const to of row.types) {
      if (!used.has(`${layer} ${to} types`)) {
        problems.push(`the table lets ${layer} import types from ${to}: none does`);
      }
    }
  }
  return problems;
}

async function repository(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const file of sourceFiles()) {
    files.set(file, await Deno.readTextFile(join(ROOT, file)));
  }
  return files;
}

const table = layerTable(await Deno.readTextFile(join(ROOT, "ARCHITECTURE.md")));

Deno.test("layers: every import is one ARCHITECTURE.md's table allows, and the table allows no more", async () => {
  const files = await repository();
  assert.ok(files.size > 300, `only ${files.size} files found under ${ROOT}`);
  assert.deepEqual(layerProblems(table, files), []);
});

Deno.test("layers: a core/ file importing http/ (or a component importing http/ code) breaks the table", async () => {
  const files = await repository();
  const core = [...files.keys()].find((file) =>
    file.startsWith("core/") && !file.includes("_test")
  )!;
  const broken = new Map(files);
  broken.set(core, `import { readWire } from "@/http/body.ts";\n${files.get(core)}`);
  assert.deepEqual(layerProblems(table, broken), [
    `${core} imports http/body.ts: core/ may not import http/`,
  ]);
  // Types only: a component may name http/'s types, never run its code.
  const component = "components/ui/Notice.tsx";
  const running = new Map(files);
  running.set(
    component,
    files.get(component)!.replace("import type { FormFailure }", "import { FormFailure }"),
  );
  assert.deepEqual(layerProblems(table, running), [
    `${component} imports http/forms.ts: components/ may not import http/`,
  ]);
});

Deno.test("layers: the parser reads every import form the code uses", () => {
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
  ].join("\n");
  assert.deepEqual(importsOf("core/x/y.ts", source), [
    { file: "core/x/y.ts", target: "core/x/a.ts", typeOnly: false },
    { file: "core/x/y.ts", target: "core/b.ts", typeOnly: true },
    { file: "core/x/y.ts", target: "core/c.ts", typeOnly: false },
    { file: "core/x/y.ts", target: "db/e.ts", typeOnly: false },
    { file: "core/x/y.ts", target: "http/side_effect.ts", typeOnly: false },
    { file: "core/x/y.ts", target: "core/deno.json", typeOnly: false },
    { file: "core/x/y.ts", target: "fresh/server.ts", typeOnly: true },
    { file: "core/x/y.ts", target: "player/lazy.ts", typeOnly: false },
  ]);
  assert.equal(layerOf("config.ts"), "config/");
  assert.equal(layerOf("config/env.ts"), "config/");
  assert.equal(layerOf("log.ts"), "log.ts");
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
