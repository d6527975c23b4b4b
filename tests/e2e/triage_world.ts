// The world of the triage browser tests: the real service with the served SDK, a switchable proxy
// in front of its ingest (forward, down, or store-then-fail), a shop on its own origin, and
// Chromium either as usual or as a process of our own with a profile kept on disk (to kill it).
import * as esbuild from "esbuild";
import { type Browser, chromium } from "playwright-core";
import { sdkAssets } from "@/api/service/sdk_assets.ts";
import { buildSdk } from "@/sdk/build/build.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@/tests/helpers/browser.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { type PagesServer, startPagesServer } from "@/tests/helpers/pages.ts";

/** forward: as is; down: 503 without storing; lossy: store, then answer 503 (a lost answer). */
export type ProxyMode = "forward" | "down" | "lossy";

export interface TriageWorld extends AsyncDisposable {
  server: PagesServer;
  projectId: string;
  cookie: string;
  siteUrl: string;
  proxy: { mode: ProxyMode; ingests: number; lost: number };
  page(path: string, body: string, head?: string): void;
  /** A file of the shop answered `delayMs` late (a script that holds its page's parsing). */
  file(path: string, body: string, type: string, delayMs?: number): void;
}

export async function triageWorld(): Promise<TriageWorld> {
  const sdkDir = await Deno.makeTempDir({ prefix: "playhead-sdk-" });
  await buildSdk({ outDir: sdkDir, dev: false });
  await esbuild.stop();
  const server = await startPagesServer({}, { mounts: [sdkAssets({ dir: sdkDir })] });
  const owner = await signedInUser(server.t, { role: "VIEWER" });
  const project = await insertProject(server.t.db.kysely, {
    organizationId: owner.organizationId,
    name: "Shop",
  });
  const proxy = { mode: "forward" as ProxyMode, ingests: 0, lost: 0 };
  const cors = { "access-control-allow-origin": "*" };
  const ingest = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const body = req.method === "POST" ? await req.arrayBuffer() : undefined;
    if (url.pathname === "/api/ingest" && req.method === "POST") {
      proxy.ingests++;
      if (proxy.mode === "down") return new Response(null, { status: 503, headers: cors });
    }
    const upstream = await fetch(server.url + url.pathname, {
      method: req.method,
      headers: req.headers,
      body,
    });
    if (proxy.mode === "lossy" && url.pathname === "/api/ingest" && upstream.ok) {
      await upstream.body?.cancel();
      proxy.lost++;
      proxy.mode = "forward"; // once: the SDK's retry is the duplicate ingest must drop
      return new Response(null, { status: 503, headers: cors });
    }
    return upstream;
  });
  const endpoint = `http://127.0.0.1:${ingest.addr.port}`;
  const pages = new Map<string, string>();
  const files = new Map<string, { body: string; type: string; delayMs: number }>();
  const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const file = files.get(path);
    if (file) {
      await new Promise((r) => setTimeout(r, file.delayMs));
      return new Response(file.body, { headers: { "content-type": file.type } });
    }
    const html = pages.get(path);
    return html === undefined
      ? new Response("not found", { status: 404 })
      : new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  const init = JSON.stringify({ apiKey: project.key, endpoint });
  return {
    server,
    projectId: project.id,
    cookie: owner.cookie,
    siteUrl: `http://127.0.0.1:${site.addr.port}`,
    proxy,
    page: (path, body, head = "") =>
      void pages.set(
        path,
        `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<script src="${server.url}/sdk/v1/playhead.js"></script>
<script>window.ph = Playhead.init(${init});${head}</script></head><body>${body}</body></html>`,
      ),
    file: (path, body, type, delayMs = 0) => void files.set(path, { body, type, delayMs }),
    [Symbol.asyncDispose]: async () => {
      await ingest.shutdown();
      await site.shutdown();
      await server[Symbol.asyncDispose]();
      await Deno.remove(sdkDir, { recursive: true });
    },
  };
}

/** Chromium as a child process of ours, on a profile folder that outlives it. */
export interface OwnChromium {
  browser: Browser;
  /** SIGKILL to every process of the browser: it ends without any of its own shutdown. */
  kill(): Promise<void>;
}

export async function ownChromium(profileDir: string): Promise<OwnChromium> {
  // In a process group of its own, so that a kill takes its renderers and helpers too: one left
  // behind would go on writing into the profile the next launch (and the cleanup) uses.
  const child = new Deno.Command("setsid", {
    args: [
      CHROMIUM_PATH,
      ...CHROMIUM_ARGS,
      `--user-data-dir=${profileDir}`,
      "--remote-debugging-port=0",
      "about:blank",
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let ws: string | null = null;
  // Bounded: Chromium prints its DevTools address once it listens, or exits.
  for (let i = 0; i < 1000 && !ws; i++) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`chromium exited before listening:\n${text}`);
    text += value;
    ws = /DevTools listening on (ws:\/\/\S+)/.exec(text)?.[1] ?? null;
  }
  if (!ws) throw new Error(`chromium never said where it listens:\n${text}`);
  void reader.read().then(function drain(r): unknown {
    return r.done ? null : reader.read().then(drain);
  }).catch(() => {});
  const browser = await chromium.connectOverCDP(ws);
  return {
    browser,
    kill: async () => {
      Deno.kill(-child.pid, "SIGKILL");
      await child.status;
    },
  };
}
