// Bundles a recorder's browser entry (browser/*.ts) with esbuild into one classic script, the way
// a team would ship it: minified, npm packages included (nothing is fetched from a CDN).
import * as esbuild from "esbuild";
import { importMapPlugin, readImportMap } from "@/fresh/import_map_plugin.ts";
import { PROFILE_DIR } from "./cpu_profile.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;

/** The minified IIFE of `entry` (a path or file URL); not minified for a CPU profile. */
export async function bundleBrowser(entry: URL): Promise<string> {
  const built = await esbuild.build({
    entryPoints: [entry.pathname],
    bundle: true,
    minify: !PROFILE_DIR,
    write: false,
    format: "iife",
    target: "es2022",
    platform: "browser",
    legalComments: "none",
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: [importMapPlugin(await readImportMap(ROOT))],
  });
  return built.outputFiles[0].text;
}
