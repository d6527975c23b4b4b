// `deno run -A bench/replay/paint_floor.ts [recording]`: how soon Chromium can paint the replay
// page at all. The page's HTML for a corpus recording (with its server frame) is fetched once,
// its scripts and links removed, and served from memory in variants: as served with the design
// system's stylesheets inlined, without the server frame, without stylesheets, and a one-paragraph
// page. Each is opened in a fresh context; prints each variant's first contentful paint (ms from
// navigation start), median and all of VISITS visits, taken in turn.
import { chromium } from "playwright-core";
import { loadRecording } from "@/bench/corpus_batches.ts";
import { percentile } from "@/bench/stats.ts";
import { startReplayWorld } from "@/tests/e2e/replay_world.ts";
import { closeIdleDatabases } from "@/tests/helpers/db.ts";
import { STYLESHEETS } from "@/core/stylesheets.ts";

const VISITS = 7;

const name = Deno.args[0] ?? "todomvc-react";
let served = "";
{
  await using world = await startReplayWorld({ dev: false });
  const sessionId = await world.record(await loadRecording(name));
  const headers = { cookie: world.cookie };
  served = await (await fetch(`${world.url}/replays/${sessionId}`, { headers })).text();
}
await closeIdleDatabases();

const css = STYLESHEETS.map((name) => Deno.readTextFileSync(`static/${name}`)).join("\n");
const bare = served.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<link [^>]*>/g, "");
const styled = (html: string) => html.replace("</head>", `<style>${css}</style></head>`);
const variants: Record<string, string> = {
  "the page, stylesheets inlined": styled(bare),
  "without the server frame": styled(bare.replace(/<iframe[\s\S]*?<\/iframe>/, "")),
  "without stylesheets": bare,
  "one paragraph": "<!doctype html><p>Hello</p>",
};
const paths = Object.keys(variants);

const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
  const html = variants[paths[Number(new URL(req.url).pathname.slice(1))]];
  return new Response(html ?? "", { headers: { "content-type": "text/html" } });
});
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
});
const paints = new Map<string, number[]>(paths.map((path) => [path, []]));
for (let visit = 0; visit < VISITS; visit++) {
  for (const [i, path] of paths.entries()) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${server.addr.port}/${i}`);
    const handle = await page.waitForFunction(
      () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? false,
      undefined,
      { polling: 50, timeout: 30_000 },
    );
    paints.get(path)!.push(await handle.jsonValue() as number);
    await context.close();
  }
}
await browser.close();
await server.shutdown();

const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(", ");
console.log(`${name}: first contentful paint, ms (median; all ${VISITS}), load average ${load}`);
for (const [path, times] of paints) {
  const sorted = times.map(Math.round).sort((a, b) => a - b);
  console.log(`  ${path}: ${percentile(sorted, 50)} (${sorted.join(", ")})`);
}
