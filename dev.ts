// Development entry: regenerates fresh.gen.ts, builds the islands and the SDK, then runs main.ts.
// `deno task build` (dev.ts build) only regenerates and builds, minified, for production.
import { join } from "node:path";
import { buildIslands } from "./fresh/build.ts";
import { resolveConfig } from "./fresh/config.ts";
import { writeManifest } from "./fresh/manifest.ts";
import { buildSdk } from "./sdk/build/build.ts";
import { writeOfflinePlayer } from "./fresh/offline_player.ts";
import { copyVendorStyles } from "./fresh/vendor_styles.ts";
import config, { VENDOR_STYLES } from "./fresh.config.ts";

const production = Deno.args[0] === "build";
const { rootDir, buildDir } = resolveConfig(config, import.meta.url);

if (await writeManifest(rootDir)) console.log("dev: fresh.gen.ts regenerated");
// Imported only now, so this run sees the manifest just written.
const { default: manifest } = await import("./fresh.gen.ts");
const islands = await buildIslands({
  rootDir,
  islands: Object.keys(manifest.islands),
  buildDir,
  dev: !production,
});
await copyVendorStyles(rootDir, buildDir, VENDOR_STYLES);
const sdk = await buildSdk({ outDir: join(buildDir, "sdk"), dev: !production });
// The exported replay's player (production reads it from here: it may not run esbuild).
await writeOfflinePlayer(buildDir);
console.log(
  `dev: built ${Object.keys(islands.islands).length} island(s) and the SDK (${sdk.classic})` +
    (production ? " for production" : ""),
);

// main.ts is strict (production) unless told otherwise; this entry is the development server.
if (!production) {
  Deno.env.set("NODE_ENV", "development");
  await import("./main.ts");
}
