// Size budget of the capture SDK (issue 4: classic script ≤ 35 KB gzipped): builds the SDK and,
// for comparison, rrweb's recorder with the console plugin alone; prints gzipped sizes.
// Run: deno run -A bench/sdk_size.ts

import * as esbuild from "esbuild";
import { gzipSync } from "node:zlib";
import { buildSdk } from "../sdk/build.ts";

const BUDGET = 35 * 1024;
const dir = await Deno.makeTempDir();
try {
  const { classic, esm } = await buildSdk({ outDir: dir, dev: false });
  const baseline = await esbuild.build({
    stdin: {
      contents: `import { record } from "@rrweb/record";
import { getRecordConsolePlugin } from "@rrweb/rrweb-plugin-console-record";
globalThis.r = [record, getRecordConsolePlugin];`,
      resolveDir: new URL("../sdk/", import.meta.url).pathname,
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
  for (const [name, bytes] of rows) {
    const gz = gzipSync(bytes, { level: 9 }).length;
    console.log(`${name.padEnd(40)} ${bytes.length} B minified, ${gz} B gzipped`);
  }
  const classicGz = gzipSync(rows[0][1], { level: 9 }).length;
  console.log(`budget ${BUDGET} B: ${classicGz <= BUDGET ? "within" : "OVER"} (${classicGz} B)`);
} finally {
  await esbuild.stop();
  await Deno.remove(dir, { recursive: true });
}
