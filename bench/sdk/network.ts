// `deno run -A bench/sdk/network.ts [--seconds N] [--runs N]`: the main-thread cost of network
// capture (docs/decisions.md "Network capture") on a page making 50 requests a second (fetch,
// small JSON answers, every fifth an XHR). The built SDK records the page in each run; the
// project's settings (served by the bench's own /api/sdk/config) turn network capture off, on, or
// on with bodies (`/api/**`). The renderer's main-thread time (CDP Performance.getMetrics
// TaskDuration) over the window is compared with the same page unrecorded; prints a table.
import * as esbuild from "esbuild";
import { parseArgs } from "node:util";
import { buildSdk } from "@/sdk/build/build.ts";
import { DEFAULT_RECORDING } from "@/core/projects/recording_limits.ts";
import { DEFAULT_NETWORK, type NetworkSettings } from "@/core/projects/network_limits.ts";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { networkBundleRunning } from "@/tests/e2e/sdk_harness.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: { seconds: { type: "string", default: "20" }, runs: { type: "string", default: "3" } },
});
const SECONDS = Number(args.seconds);
const RUNS = Number(args.runs);
const RATE = 50;

const sdkDir = await Deno.makeTempDir({ prefix: "playhead-network-bench-" });
const built = await buildSdk({ outDir: sdkDir, dev: false });
await esbuild.stop();

type Mode = "unrecorded" | "network off" | "network on" | "network on, bodies";
const NETWORK: Record<Exclude<Mode, "unrecorded">, Partial<NetworkSettings>> = {
  "network off": {},
  "network on": { enabled: true },
  "network on, bodies": { enabled: true, bodyUrls: ["/api/**"] },
};
let mode: Mode = "unrecorded";

const page = (recorded: boolean) =>
  `<!doctype html><html><head>
${
    recorded
      ? `<script src="/sdk/v1/playhead.js"></script>
<script>Playhead.init({ apiKey: "sp_${"0".repeat(32)}", endpoint: location.origin,
  flushInterval: 5000 });</script>`
      : ""
  }</head><body><ul id="list"></ul><script>
let n = 0;
window.__start = () => setInterval(() => {
  const i = n++;
  if (i % 5 === 4) {
    const x = new XMLHttpRequest(); x.open("GET", "/api/items/" + i); x.send();
  } else {
    fetch("/api/items/" + i, { method: i % 2 ? "POST" : "GET",
      headers: { "content-type": "application/json" },
      body: i % 2 ? JSON.stringify({ qty: i, password: "x" }) : undefined });
  }
}, ${1000 / RATE});
</script></body></html>`;

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
  const path = new URL(req.url).pathname;
  if (path === "/") {
    return new Response(page(mode !== "unrecorded"), { headers: { "content-type": "text/html" } });
  }
  if (path === "/api/sdk/config") {
    const network = mode === "unrecorded" ? {} : NETWORK[mode];
    return Response.json({ ...DEFAULT_RECORDING, network: { ...DEFAULT_NETWORK, ...network } });
  }
  if (path === "/api/ingest") {
    await req.body?.cancel();
    return new Response(null, { status: 204 });
  }
  if (path.startsWith("/api/items/")) {
    await req.body?.cancel();
    return Response.json({ id: path.slice(11), name: "Item", price: 12.5, token: "t" });
  }
  // The stable URL the page loads, and the hashed modules the SDK imports from /sdk/.
  if (path.startsWith("/sdk/")) {
    const file = path === "/sdk/v1/playhead.js" ? built.classic : path.slice("/sdk/".length);
    try {
      return new Response(await Deno.readFile(`${sdkDir}/${file}`), {
        headers: { "content-type": "text/javascript" },
      });
    } catch {
      return new Response("not found", { status: 404 });
    }
  }
  return new Response("not found", { status: 404 });
});

const browser = await launchChromium();
async function measure(m: Mode): Promise<number> {
  mode = m;
  const context = await browser.newContext();
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send("Performance.enable");
  await tab.goto(`http://127.0.0.1:${server.addr.port}/`);
  if (m !== "unrecorded") {
    await tab.waitForFunction(() =>
      Object.keys(localStorage).some((k) => k.startsWith("playhead:settings:"))
    );
  }
  if (m.startsWith("network on")) {
    await networkBundleRunning(tab);
  }
  const taskSeconds = async () =>
    (await cdp.send("Performance.getMetrics")).metrics.find((x) => x.name === "TaskDuration")!
      .value;
  const before = await taskSeconds();
  await tab.evaluate("__start()");
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const after = await taskSeconds();
  await context.close();
  return (after - before) * 1000;
}

const modes: Mode[] = ["unrecorded", "network off", "network on", "network on, bodies"];
const results = new Map<Mode, number[]>(modes.map((m) => [m, []]));
for (let run = 0; run < RUNS; run++) {
  for (const m of modes) {
    const ms = await measure(m);
    results.get(m)!.push(ms);
    console.error(`run ${run + 1}/${RUNS} ${m}: ${ms.toFixed(0)} ms of main thread`);
  }
}
await browser.close();
await server.shutdown();
await Deno.remove(sdkDir, { recursive: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results.get("network off")!);
console.log(
  `Network capture, ${RATE} requests/s for ${SECONDS} s, median of ${RUNS} (main thread ms; ` +
    `per second of the page):\n`,
);
console.log("| mode | main thread | per second | vs. network off |");
console.log("| ---- | ----------: | ---------: | --------------: |");
for (const m of modes) {
  const ms = median(results.get(m)!);
  const delta = m === "unrecorded"
    ? ""
    : `${ms - base >= 0 ? "+" : ""}${(ms - base).toFixed(0)} ms`;
  console.log(`| ${m} | ${ms.toFixed(0)} ms | ${(ms / SECONDS).toFixed(1)} ms | ${delta} |`);
}
