// Page-layer configuration: where static files and the islands build live. Imported by main.ts
// (to serve) and dev.ts (to build).
import { defineConfig } from "$fresh/server.ts";

/** npm stylesheets the pages link as /build/vendor/<name> (fresh/vendor_styles.ts). */
export const VENDOR_STYLES = { "uplot.css": "uplot/dist/uPlot.min.css" };

export default defineConfig({
  staticDir: "./static",
  // BUILD_DIR moves it, so a second development server (or a test of `deno task dev`) builds and
  // serves its own copy without touching the one production serves.
  build: { outDir: Deno.env.get("BUILD_DIR") || "./static/build" },
});
