// Bundles the client boot script and every island with esbuild: code-split, content-hashed ESM in
// the build directory, plus `manifest.json` naming the chunk of each island.
import * as esbuild from "esbuild";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_MANIFEST, type BuildManifest, readBuildManifest } from "./build_manifest.ts";
import { importMapPlugin, readImportMap } from "./import_map_plugin.ts";
import { islandName } from "./islands.ts";
import { precompressFiles, removeWithVariants } from "./precompress.ts";

export interface BuildOptions {
  /** Project root: holds deno.json, node_modules/ and the islands' folder. */
  rootDir: string;
  /** Island manifest keys (`./islands/X.tsx`) relative to rootDir. */
  islands: string[];
  buildDir: string;
  /** Development builds are not minified and carry inline source maps. */
  dev?: boolean;
}

const BOOT = fileURLToPath(new URL("./client/boot.ts", import.meta.url));

export async function buildIslands(options: BuildOptions): Promise<BuildManifest> {
  const rootDir = resolve(options.rootDir);
  const buildDir = resolve(options.buildDir);
  const entries = [{ in: BOOT, out: "fresh-boot" }];
  const names = new Map<string, string>(); // absolute entry path → island name
  for (const key of options.islands) {
    const name = islandName(key);
    const path = join(rootDir, key);
    entries.push({ in: path, out: `island-${name.replace(/[^\w-]/g, "_")}` });
    names.set(path, name);
  }
  const previous = await readBuildManifest(buildDir);
  try {
    const result = await esbuild.build({
      entryPoints: entries,
      absWorkingDir: rootDir,
      outdir: buildDir,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["es2022"],
      minify: !options.dev,
      sourcemap: options.dev ? "inline" : false,
      jsx: "automatic",
      jsxImportSource: "preact",
      entryNames: "[name]-[hash]",
      chunkNames: "chunk-[hash]",
      metafile: true,
      write: true,
      logLevel: "error",
      define: {
        "process.env.NODE_ENV": JSON.stringify(options.dev ? "development" : "production"),
      },
      plugins: [importMapPlugin(await readImportMap(rootDir))],
    });
    const manifest = toManifest(result.metafile, rootDir, buildDir, names);
    await Deno.writeTextFile(join(buildDir, BUILD_MANIFEST), JSON.stringify(manifest, null, 2));
    await removeStale(buildDir, previous, manifest);
    await precompressFiles(manifest.files.map((f) => join(buildDir, f)), { dev: options.dev });
    return manifest;
  } finally {
    await esbuild.stop();
  }
}

function toManifest(
  metafile: esbuild.Metafile,
  rootDir: string,
  buildDir: string,
  names: Map<string, string>,
): BuildManifest {
  const manifest: BuildManifest = { buildId: "", boot: "", islands: {}, imports: {}, files: [] };
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    const file = relative(buildDir, join(rootDir, output));
    manifest.files.push(file);
    manifest.imports[file] = meta.imports
      .filter((i) => i.kind === "import-statement")
      .map((i) => relative(buildDir, join(rootDir, i.path)));
    if (!meta.entryPoint) continue;
    const entry = join(rootDir, meta.entryPoint);
    if (entry === BOOT) manifest.boot = file;
    else if (names.has(entry)) manifest.islands[names.get(entry)!] = file;
  }
  manifest.files.sort();
  // The file names carry content hashes, so their list identifies the build.
  manifest.buildId = hashNames(manifest.files);
  return manifest;
}

function hashNames(files: string[]): string {
  let hash = 0x811c9dc5; // FNV-1a, enough to tell builds apart
  for (const char of files.join("\n")) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** Deletes the previous build's files (and their `.br`/`.gz`) that the new build no longer has. */
async function removeStale(buildDir: string, previous: BuildManifest | null, next: BuildManifest) {
  const keep = new Set(next.files);
  for (const file of previous?.files ?? []) {
    if (!keep.has(file)) await removeWithVariants(join(buildDir, file));
  }
}
