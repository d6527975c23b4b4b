import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { copyVendorStyles } from "./vendor_styles.ts";
import { VENDOR_STYLES } from "@/fresh.config.ts";

Deno.test("vendor styles: each listed npm stylesheet lands in the build's vendor folder", async () => {
  const rootDir = fileURLToPath(new URL("../", import.meta.url));
  const buildDir = await Deno.makeTempDir({ prefix: "vendor-styles-" });
  try {
    await copyVendorStyles(rootDir, buildDir, VENDOR_STYLES);
    const css = await Deno.readTextFile(`${buildDir}/vendor/uplot.css`);
    assert.match(css, /\.uplot\s*[,{]/);
  } finally {
    await Deno.remove(buildDir, { recursive: true });
  }
});

Deno.test("vendor styles: a stylesheet missing from node_modules fails the build", async () => {
  const buildDir = await Deno.makeTempDir({ prefix: "vendor-styles-" });
  try {
    await assert.rejects(
      copyVendorStyles(buildDir, buildDir, { "x.css": "no-such-package/x.css" }),
      Deno.errors.NotFound,
    );
  } finally {
    await Deno.remove(buildDir, { recursive: true });
  }
});
