// Builds the capture SDK with esbuild: a classic script defining the global `Playhead` and an ES
// module, plus the modules they load on demand (sdk/lazy_modules.ts), all content-hashed and
// precompressed (`.br`, `.gz`), and `manifest.json` naming them (read by api/service/sdk_assets.ts).

import * as esbuild from "esbuild";
import { importMapPlugin, readImportMap } from "@/fresh/import_map_plugin.ts";
import { precompressFiles, removeWithVariants } from "@/fresh/precompress.ts";
import { SDK_FILE } from "./file_names.ts";
import { LAZY_ENTRIES, type LazyModules } from "@/sdk/lazy_modules.ts";

/** Contents of `manifest.json` in the output directory. */
export interface SdkManifest {
  /** File name of the classic (IIFE) script inside the output directory. */
  classic: string;
  /** File name of the ES module inside the output directory. */
  esm: string;
  /** File names of the modules the entry loads on demand, by name. */
  lazy: Record<keyof LazyModules, string>;
  /** Subresource-integrity digests (sha384) by file name, for customers pinning a hashed URL. */
  integrity: Record<string, string>;
}

/** The SDK's folder (this file is in its build/), which the entries are named from. */
const SDK_DIR = new URL("..", import.meta.url);
const ENTRY = new URL("mod.ts", SDK_DIR).pathname;

/**
 * Builds both bundles and the on-demand modules into `outDir` and writes `manifest.json`; returns
 * the file names (inside `outDir`) of each. Older bundles in `outDir` are removed.
 */
export async function buildSdk(
  opts: { outDir: string; dev: boolean },
): Promise<Omit<SdkManifest, "integrity">> {
  await Deno.mkdir(opts.outDir, { recursive: true });
  const common: esbuild.BuildOptions = {
    entryPoints: { playhead: ENTRY },
    bundle: true,
    outdir: opts.outDir,
    entryNames: "[name]-[hash]",
    minify: !opts.dev,
    sourcemap: opts.dev ? "inline" : false,
    // Private fields, optional chaining and `??` run natively; older browsers are not supported.
    target: ["es2022", "chrome94", "firefox93", "safari15.4"],
    platform: "browser",
    legalComments: "none",
    metafile: true,
    write: true,
    logLevel: "silent",
    // `@/` imports (the service's shared rules, such as core/ingest/limits.ts) resolve as in Deno.
    plugins: [importMapPlugin(await readImportMap(new URL("..", SDK_DIR).pathname))],
  };
  const lazy = {} as Record<keyof LazyModules, string>;
  for (const [name, entry] of Object.entries(LAZY_ENTRIES)) {
    const built = await esbuild.build({
      ...common,
      entryPoints: { [`playhead-${name}`]: new URL(entry, SDK_DIR).pathname },
      format: "esm",
      outExtension: { ".js": ".mjs" },
    });
    lazy[name as keyof LazyModules] = outputName(built.metafile!, `playhead-${name}-`);
  }
  const entries = { ...common, define: { PLAYHEAD_LAZY: JSON.stringify(lazy) } };
  const [classic, esm] = await Promise.all([
    esbuild.build({ ...entries, format: "iife", globalName: "Playhead" }),
    esbuild.build({ ...entries, format: "esm", outExtension: { ".js": ".mjs" } }),
  ]);
  const names = {
    classic: outputName(classic.metafile!, "playhead-"),
    esm: outputName(esm.metafile!, "playhead-"),
  };
  const files = [names.classic, names.esm, ...Object.values(lazy)];
  const integrity: Record<string, string> = {};
  for (const name of files) {
    integrity[name] = await sri(await Deno.readFile(`${opts.outDir}/${name}`));
  }
  const manifest: SdkManifest = { ...names, lazy, integrity };
  await Deno.writeTextFile(
    `${opts.outDir}/manifest.json`,
    JSON.stringify(manifest, null, 2) + "\n",
  );
  await removeStale(opts.outDir, new Set(files));
  await precompressFiles(files.map((n) => `${opts.outDir}/${n}`), opts);
  return { ...names, lazy };
}

/** The output whose name is `prefix` and a hash (the entry's `playhead-` excludes modules'). */
function outputName(metafile: esbuild.Metafile, prefix: string): string {
  const named = new RegExp(`^${prefix}[A-Za-z0-9]+\\.m?js$`);
  const path = Object.keys(metafile.outputs).find((p) => named.test(p.split("/").pop()!));
  if (!path) throw new Error("esbuild produced no playhead bundle");
  return path.split("/").pop()!;
}

async function sri(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-384", bytes as BufferSource));
  return "sha384-" + btoa(String.fromCharCode(...digest));
}

async function removeStale(dir: string, keep: Set<string>): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && SDK_FILE.test(entry.name) && !keep.has(entry.name)) {
      await removeWithVariants(`${dir}/${entry.name}`);
    }
  }
}

if (import.meta.main) {
  const outDir = Deno.args[0] ?? "static/build/sdk";
  const names = await buildSdk({ outDir, dev: Deno.args.includes("--dev") });
  console.log(`built ${outDir}/${names.classic} and ${outDir}/${names.esm}`);
  await esbuild.stop();
}
