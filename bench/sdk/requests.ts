// Requests per recorded minute of a 10-minute visit (a count, not a timing): a page that changes
// its DOM every second, recorded with the SDK's defaults on a controlled clock (playwright's), its
// ingest posts counted by a sink. `--before <path of another checkout's sdk/build/build.ts>` counts that
// SDK too, for a before/after.
// Run: deno run -A bench/sdk/requests.ts [--before /work/main/sdk/build.ts]
import * as esbuild from "esbuild";
import { parseArgs } from "node:util";
import { buildSdk } from "@/sdk/build/build.ts";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { recent } from "@/tests/helpers/times.ts";

const VISIT_MINUTES = 10;
const { values: args } = parseArgs({ args: Deno.args, options: { before: { type: "string" } } });

type Build = typeof buildSdk;

async function sdkScript(build: Build): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "playhead-requests-" });
  try {
    const { classic } = await build({ outDir: dir, dev: false });
    return await Deno.readTextFile(`${dir}/${classic}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Ingest posts of one visit of VISIT_MINUTES, the tab closed at its end. */
async function countRequests(script: string): Promise<number> {
  let posts = 0;
  const page = `<!doctype html><html><head><script src="/sdk.js"></script>
<script>Playhead.init({ apiKey: "sp_${"0".repeat(32)}", endpoint: location.origin });</script>
</head><body><p id="clock">0</p></body></html>`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/api/ingest") {
      posts++;
      return new Response(null, { status: 204 });
    }
    if (path === "/sdk.js") {
      return new Response(script, { headers: { "content-type": "text/javascript" } });
    }
    return new Response(page, { headers: { "content-type": "text/html" } });
  });
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    await tab.clock.install({ time: recent(Date.parse("2026-03-02T10:00:00Z")) });
    await tab.goto(`http://127.0.0.1:${server.addr.port}/`);
    for (let second = 1; second <= VISIT_MINUTES * 60; second++) {
      await tab.evaluate((s) => document.getElementById("clock")!.textContent = String(s), second);
      await tab.clock.runFor(1_000);
    }
    await tab.close(); // pagehide: the rest goes with keepalive
    await new Promise((r) => setTimeout(r, 1_000)); // lets the last posts arrive (a count only)
    return posts;
  } finally {
    await browser.close();
    await server.shutdown();
  }
}

const rows: [string, number][] = [];
if (args.before) {
  const before = (await import(args.before)).buildSdk as Build;
  rows.push(["before", await countRequests(await sdkScript(before))]);
}
rows.push(["this tree", await countRequests(await sdkScript(buildSdk))]);
await esbuild.stop();
console.log(`| SDK | ingest requests in a ${VISIT_MINUTES}-minute visit | per recorded minute |`);
console.log("| --- | --: | --: |");
for (const [name, n] of rows) {
  console.log(`| ${name} | ${n} | ${(n / VISIT_MINUTES).toFixed(2)} |`);
}
if (rows.length === 2) console.log(`\nratio after/before: ${(rows[1][1] / rows[0][1]).toFixed(2)}`);
