// ARCHITECTURE.md's map read as data, and the repository's arrows checked against it: the layer
// table ("Which folder imports which"), each folder's sub-folder order ("Inside a folder") and what
// the islands' bundle may reach. tests/layers_test.ts runs it on the code and on broken copies.
import { dirname, join, normalize } from "node:path";

export interface Row {
  /** `null`: anything. */
  imports: Set<string> | null;
  types: Set<string>;
}

/** An arrow from one repository file to another: an import, a worker's or a read file's URL. */
export interface Arrow {
  file: string;
  target: string;
  typeOnly: boolean;
  /** The import climbs with `../` instead of naming its target with `@/`. */
  climbs: boolean;
}

const names = (cell = "") => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The rows of the markdown table under `### heading`: first cell's names → the other cells. */
function tableRows(markdown: string, heading: string): Array<[string[], string[]]> {
  const section = markdown.split(new RegExp(`^### ${heading}$`, "m"))[1]?.split(/^#/m)[0];
  if (!section) throw new Error(`ARCHITECTURE.md has no section “${heading}”`);
  return section.split("\n").map((line) => line.split("|").slice(1, -1).map((c) => c.trim()))
    .filter((cells) => cells.length > 1 && /^`[^`]+`/.test(cells[0]))
    .map((cells) => [names(cells[0]), cells.slice(1)]);
}

/** The table under "Which folder imports which": folder or root module → what it may import. */
export function layerTable(markdown: string): Map<string, Row> {
  const table = new Map<string, Row>();
  for (const [layers, [imports, types]] of tableRows(markdown, "Which folder imports which")) {
    const row = {
      imports: names(imports)[0] === "*" ? null : new Set(names(imports)),
      types: new Set(names(types)),
    };
    for (const layer of layers) table.set(layer, row);
  }
  return table;
}

/** The table under "Inside a folder": a folder → its sub-folders, the top one first. */
export function folderOrders(markdown: string): Map<string, string[]> {
  const orders = new Map<string, string[]>();
  for (const [[folder], [order]] of tableRows(markdown, "Inside a folder")) {
    orders.set(folder, names(order));
  }
  return orders;
}

const STATIC = /^[ \t]*(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s*)?["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
/** `new URL("./worker.ts", import.meta.url)`, or a template's fixed start: `../../static/${x}`. */
const URL_ARROW =
  /\bnew URL\(\s*(?:["']([^"']+)["']|`([^`$]+)\$\{[^`]*`)\s*,\s*import\.meta\.url\s*\)/g;

/** The repository paths `file` points at; npm and node: imports are not ours. */
export function arrowsOf(file: string, source: string): Arrow[] {
  const found: Arrow[] = [];
  const add = (specifier: string, typeOnly: boolean, url?: "whole" | "start") => {
    // A URL is relative to the file (no import map); "..", "./" or "../../" name a folder.
    if (
      url && (!specifier.startsWith(".") || (url === "whole" && /(^|\/)(\.\.?)?$/.test(specifier)))
    ) return;
    const target = resolve(file, specifier);
    if (target !== null) {
      found.push({ file, target, typeOnly, climbs: !url && specifier.startsWith("../") });
    }
  };
  for (const m of source.matchAll(STATIC)) add(m[2], Boolean(m[1]));
  for (const m of source.matchAll(DYNAMIC)) add(m[1], false);
  for (const m of source.matchAll(URL_ARROW)) add(m[1] ?? m[2], false, m[1] ? "whole" : "start");
  return found;
}

function resolve(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return normalize(specifier.slice(2));
  if (specifier.startsWith("$fresh/")) return normalize(join("fresh", specifier.slice(7)));
  if (specifier.startsWith(".")) return normalize(join(dirname(file), specifier));
  return null;
}

/** The table's name for where a repository path lives: `core/`, `config/`, `log.ts`. */
export function layerOf(path: string): string {
  const [first, ...rest] = path.split("/");
  if (rest.length) return `${first}/`;
  const module = first.replace(/_test\.ts$/, ".ts"); // a root module's test goes with it
  return module === "config.ts" ? "config/" : module;
}

/** Where a file sits inside its top-level folder: a sub-folder (`load/`) or `(root)`. */
function roomOf(path: string): string {
  const parts = path.split("/");
  return parts.length > 2 ? `${parts[1]}/` : "(root)";
}

/** Every arrow the table or a folder's order does not allow, and the allowances never used. */
export function layerProblems(
  table: Map<string, Row>,
  orders: Map<string, string[]>,
  files: Map<string, string>,
): string[] {
  const problems: string[] = [];
  const used = new Set<string>();
  for (const file of files.keys()) {
    if (!table.has(layerOf(file))) {
      problems.push(`${file}: ${layerOf(file)} has no row in the layer table`);
    }
    const order = orders.get(layerOf(file));
    if (order && roomOf(file) !== "(root)" && !order.includes(roomOf(file))) {
      problems.push(`${file}: ${roomOf(file)} has no place in ${layerOf(file)}'s order`);
    }
  }
  for (const [file, source] of files) {
    const layer = layerOf(file);
    const row = table.get(layer);
    if (!row) continue;
    for (const { target, typeOnly, climbs } of arrowsOf(file, source)) {
      if (climbs) problems.push(`${file} imports ${target} by climbing with ../: name it with @/`);
      const to = layerOf(target);
      if (to === layer) {
        const order = orders.get(layer);
        const [from, into] = [roomOf(file), roomOf(target)];
        // A folder's own root modules are ordered only when the order names `(root)`.
        const ranked = order && order.includes(from) && order.includes(into);
        const test = file.endsWith("_test.ts"); // a unit test may drive its module from above
        if (ranked && !typeOnly && !test && order.indexOf(into) < order.indexOf(from)) {
          problems.push(`${file} imports ${target}: ${layer}${into} is above ${layer}${from}`);
        }
        continue;
      }
      if (row.imports === null) continue;
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

/** Folders whose code runs only on the server, and packages that do. */
const SERVER_FOLDERS = ["db/", "http/", "api/", "config/", "routes/"];
const SERVER_PACKAGE =
  /^[ \t]*import\s+(?!type\b)[^;]*?["'](node:[^"']+|kysely[^"']*|postgres|@electric-sql\/pglite[^"']*|hono[^"']*|@hono\/[^"']+|aws4fetch|prom-client|happy-dom|parse5)["']/m;

/** The files an island's bundle carries: what its code imports (not `import type`), closed. */
export function reachedFrom(files: Map<string, string>, island: string): string[] {
  const queue = [island];
  const seen = new Set(queue);
  for (let i = 0; i < queue.length && i < 10_000; i++) {
    for (const { target, typeOnly } of arrowsOf(queue[i], files.get(queue[i]) ?? "")) {
      if (typeOnly || seen.has(target) || !files.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return queue;
}

/**
 * What the browser bundles would carry that cannot run in a browser: each file an island or a
 * player module reaches that sits in a server folder, imports a server package or calls Deno's API.
 */
export function islandProblems(files: Map<string, string>): string[] {
  const problems = new Set<string>();
  // The player is the islands' too, every module of it (the export's bundle takes what islands don't).
  const browser = (f: string) => /^(islands|player)\/.*\.tsx?$/.test(f) && !f.endsWith("_test.ts");
  for (const island of [...files.keys()].filter(browser)) {
    for (const file of reachedFrom(files, island)) {
      const source = files.get(file) ?? "";
      const server = SERVER_FOLDERS.find((folder) => file.startsWith(folder));
      const pkg = SERVER_PACKAGE.exec(source)?.[1];
      const deno = /^[^/\n]*\bDeno\.\w+/m.test(source);
      const why = server ? `is in ${server}` : pkg ? `imports ${pkg}` : deno ? "calls Deno" : null;
      if (why) problems.add(`${file}, which ${why}, is in the bundle of ${island}`);
    }
  }
  return [...problems];
}
