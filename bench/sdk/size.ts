// Size budget of the capture SDK (classic script ≤ 38 KB gzipped): builds the SDK and,
// for comparison, rrweb's recorder with the console plugin alone; prints gzipped sizes.
// Run: deno run -A bench/sdk/size.ts

import * as esbuild from "esbuild";
import { gzipSync } from "node:zlib";
import { buildSdk } from "@/sdk/build/build.ts";

export const SIZE_BUDGET = 38 * 1024;

/** A bundle's size as the budget counts it: gzip -9. */
export const gzippedSize = (bytes: Uint8Array | string) => gzipSync(bytes, { level: 9 }).length;

/** One bundle's size: minified bytes and gzip -9 bytes. */
export interface BundleSize {
  name: string;
  minified: number;
  gzipped: number;
}

/**
 * Sizes of the classic script, the ES module, the rrweb-only baseline and each module the SDK
 * loads on demand (not part of the budget: fetched after the start, only when needed), in that order.
 */
export async function measureSdkSize(): Promise<BundleSize[]> {
  const dir = await Deno.makeTempDir();
  try {
    const { classic, esm, lazy } = await buildSdk({ outDir: dir, dev: false });
    const baseline = await esbuild.build({
      stdin: {
        contents: `import { record } from "@rrweb/record";
import { getRecordConsolePlugin } from "@rrweb/rrweb-plugin-console-record";
globalThis.r = [record, getRecordConsolePlugin];`,
        resolveDir: new URL("../../sdk/", import.meta.url).pathname,
      },
      bundle: true,
      minify: true,
      write: false,
      format: "iife",
      target: "es2022",
      legalComments: "none",
    });
    const rows: [string, Uint8Array][] = [
      ["classic script (IIFE)", await Deno.readFile(`${dir}/${classic}`)],
      ["ES module", await Deno.readFile(`${dir}/${esm}`)],
      ["rrweb recorder + console plugin alone", baseline.outputFiles[0].contents],
    ];
    for (const [name, file] of Object.entries(lazy)) {
      rows.push([`on demand: ${name}`, await Deno.readFile(`${dir}/${file}`)]);
    }
    return rows.map(([name, bytes]) => ({
      name,
      minified: bytes.length,
      gzipped: gzippedSize(bytes),
    }));
  } finally {
    await esbuild.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const sizes = await measureSdkSize();
  for (const { name, minified, gzipped } of sizes) {
    console.log(`${name.padEnd(40)} ${minified} B minified, ${gzipped} B gzipped`);
  }
  const classicGz = sizes[0].gzipped;
  console.log(
    `budget ${SIZE_BUDGET} B: ${classicGz <= SIZE_BUDGET ? "within" : "OVER"} (${classicGz} B)`,
  );
  if (classicGz > SIZE_BUDGET) Deno.exit(1); // CI runs it: over budget fails the build
}
