// An esbuild plugin that resolves bare specifiers through deno.json's import map, so island code
// bundles with the same `preact`, `preact/hooks` and `$fresh/` that the server uses.
import type { Plugin } from "esbuild";
import { dirname, isAbsolute, join } from "node:path";

export type ImportMap = Record<string, string>;

/** Maps a specifier through the import map: exact key first, then the longest `prefix/` key. */
export function mapSpecifier(imports: ImportMap, specifier: string): string | null {
  if (imports[specifier] !== undefined) return imports[specifier];
  let best: string | null = null;
  for (const key of Object.keys(imports)) {
    if (key.endsWith("/") && specifier.startsWith(key) && key.length > (best?.length ?? 0)) {
      best = key;
    }
  }
  return best === null ? null : imports[best] + specifier.slice(best.length);
}

/** `npm:/preact@^11.2.0/hooks` → `preact/hooks`; `npm:@rrweb/types@^2` → `@rrweb/types`. */
export function npmToBare(target: string): string {
  const rest = target.slice("npm:".length).replace(/^\//, "");
  const match = /^((?:@[^/]+\/)?[^@/]+)(?:@[^/]*)?(\/.*)?$/.exec(rest);
  if (!match) throw new Error(`Cannot read npm specifier ${target}`);
  return match[1] + (match[2] ?? "");
}

/** The import map of the nearest deno.json, and the folder its relative targets start from. */
export interface LoadedImportMap {
  imports: ImportMap;
  baseDir: string;
}

export function importMapPlugin({ imports, baseDir }: LoadedImportMap): Plugin {
  return {
    name: "deno-import-map",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === "mapped" || isAbsolute(args.path)) return undefined;
        let target = mapSpecifier(imports, args.path);
        if (target === null && args.path.startsWith("npm:")) target = args.path;
        if (target === null) return undefined;
        if (target.startsWith("./") || target.startsWith("../")) {
          return { path: join(baseDir, target) };
        }
        if (!target.startsWith("npm:")) {
          return {
            errors: [{ text: `Only npm: and relative import map targets bundle: ${target}` }],
          };
        }
        // Resolve from deno.json's folder, where Deno's node_modules folder lives.
        const result = await build.resolve(npmToBare(target), {
          kind: args.kind,
          resolveDir: baseDir,
          pluginData: "mapped",
        });
        return result.errors.length > 0 ? { errors: result.errors } : { path: result.path };
      });
    },
  };
}

export async function readImportMap(fromDir: string): Promise<LoadedImportMap> {
  for (let dir = fromDir;; dir = dirname(dir)) {
    try {
      const config = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
      return { imports: config.imports ?? {}, baseDir: dir };
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (dirname(dir) === dir) return { imports: {}, baseDir: fromDir };
    }
  }
}
