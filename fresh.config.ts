// Page-layer configuration: where static files and the islands build live. Imported by main.ts
// (to serve) and dev.ts (to build).
import { defineConfig } from "$fresh/server.ts";

export default defineConfig({
  staticDir: "./static",
  build: { outDir: "./static/build" },
});
