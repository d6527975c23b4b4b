// The exported replay's script, built here as the islands are: player/offline/entry.tsx bundled by
// esbuild into one classic script (no chunks, no imports: the file must play from disk with no
// network). `deno task build` writes it to <build dir>/export/player.js for production, which reads
// it from there (it may not run esbuild); development and tests bundle it on first use. Either way
// once per process.
import * as esbuild from "esbuild";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importMapPlugin, readImportMap } from "./import_map_plugin.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ENTRY = fileURLToPath(new URL("../player/offline/entry.tsx", import.meta.url));
export const OFFLINE_PLAYER_FILE = "export/player.js";

export async function bundleOfflinePlayer(): Promise<string> {
  try {
    const result = await esbuild.build({
      entryPoints: [ENTRY],
      absWorkingDir: ROOT,
      bundle: true,
      format: "iife",
      platform: "browser",
      target: ["es2022"],
      minify: true,
      write: false,
      jsx: "automatic",
      jsxImportSource: "preact",
      legalComments: "none",
      logLevel: "error",
      // Nothing reads it: the worker it names is never started (entry.tsx).
      define: {
        "process.env.NODE_ENV": '"production"',
        "import.meta.url": '""',
      },
      plugins: [importMapPlugin(await readImportMap(ROOT))],
    });
    return result.outputFiles[0].text;
  } finally {
    await esbuild.stop();
  }
}

/** Writes the bundle for production (dev.ts). */
export async function writeOfflinePlayer(buildDir: string): Promise<void> {
  const path = join(buildDir, OFFLINE_PLAYER_FILE);
  await Deno.mkdir(join(buildDir, "export"), { recursive: true });
  await Deno.writeTextFile(path, await bundleOfflinePlayer());
}

let cached: Promise<string> | null = null;

/** The script: read from the build in production, bundled here otherwise. */
export function offlinePlayerScript(production: boolean, buildDir: string): Promise<string> {
  cached ??= production
    ? Deno.readTextFile(join(buildDir, OFFLINE_PLAYER_FILE))
    : bundleOfflinePlayer();
  cached.catch(() => (cached = null)); // a failure is tried again next time
  return cached;
}
