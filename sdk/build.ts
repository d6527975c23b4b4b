// Builds the capture SDK with esbuild: a classic script defining the global `Playhead` and an ES
// module, both content-hashed and precompressed (`.br`, `.gz`), plus `manifest.json` naming them
// (read by api/service/sdk_assets.ts). The network bundle (sdk/network/mod.ts: rrweb's network
// plugin and web-vitals) is built first, as a classic script of its own that both entries load
// only when a project records requests; its name and digest are written into them.

import * as esbuild from "esbuild";
import { importMapPlugin, readImportMap } from "@/fresh/import_map_plugin.ts";
import { precompressFiles, removeWithVariants } from "@/fresh/precompress.ts";

/** Contents of `manifest.json` in the output directory. */
export interface SdkManifest {
  /** File name of the classic (IIFE) script inside the output directory. */
  classic: string;
  /** File name of the ES module inside the output directory. */
  esm: string;
  /** File name of the network bundle (loaded by the SDK when a project records requests). */
  network: string;
  /** Subresource-integrity digests (sha384) by file name, for customers pinning a hashed URL. */
  integrity: Record<string, string>;
}

const ENTRY = new URL("./mod.ts", import.meta.url).pathname;
const NETWORK_ENTRY = new URL("./network/mod.ts", import.meta.url).pathname;
const NAME = /^playhead-[A-Za-z0-9]+\.(m?js)$/;
const NETWORK_NAME = /^playhead-network-[A-Za-z0-9]+\.js$/;

/**
 * Builds both bundles into `outDir` and writes `manifest.json`; returns the file names (inside
 * `outDir`) of the classic script and the ES module. Older bundles in `outDir` are removed.
 */
export async function buildSdk(
  opts: { outDir: string; dev: boolean },
): Promise<{ classic: string; esm: string; network: string }> {
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
    plugins: [importMapPlugin(await readImportMap(new URL("../", import.meta.url).pathname))],
  };
  const networkBuild = await esbuild.build({
    ...common,
    entryPoints: { "playhead-network": NETWORK_ENTRY },
    format: "iife",
    globalName: "PlayheadNetwork",
  });
  const network = outputName(networkBuild.metafile!, NETWORK_NAME);
  const define = { PLAYHEAD_NETWORK_FILE: JSON.stringify(network) };
  const [classic, esm] = await Promise.all([
    esbuild.build({ ...common, define, format: "iife", globalName: "Playhead" }),
    esbuild.build({ ...common, define, format: "esm", outExtension: { ".js": ".mjs" } }),
  ]);
  const names = {
    classic: outputName(classic.metafile!),
    esm: outputName(esm.metafile!),
    network,
  };
  const integrity: Record<string, string> = {};
  for (const name of [names.classic, names.esm, names.network]) {
    integrity[name] = await sri(await Deno.readFile(`${opts.outDir}/${name}`));
  }
  const manifest: SdkManifest = { ...names, integrity };
  await Deno.writeTextFile(
    `${opts.outDir}/manifest.json`,
    JSON.stringify(manifest, null, 2) + "\n",
  );
  const built = [names.classic, names.esm, names.network];
  await removeStale(opts.outDir, new Set(built));
  await precompressFiles(built.map((n) => `${opts.outDir}/${n}`), opts);
  return names;
}

function outputName(metafile: esbuild.Metafile, name = NAME): string {
  const path = Object.keys(metafile.outputs).find((p) => name.test(p.split("/").pop()!));
  if (!path) throw new Error("esbuild produced no playhead bundle");
  return path.split("/").pop()!;
}

async function sri(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-384", bytes as BufferSource));
  return "sha384-" + btoa(String.fromCharCode(...digest));
}

async function removeStale(dir: string, keep: Set<string>): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const ours = NAME.test(entry.name) || NETWORK_NAME.test(entry.name);
    if (entry.isFile && ours && !keep.has(entry.name)) {
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
