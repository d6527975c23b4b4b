// Harness for the SDK's browser tests: the real service (with the built SDK mounted at its stable
// URL), a recording proxy in front of its ingest, test pages on their own origin, and Chromium.

import * as esbuild from "esbuild";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sdkAssets } from "@/api/service/sdk_assets.ts";
import type { Playhead } from "@/sdk/mod.ts";
import { buildSdk } from "@/sdk/build/build.ts";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { startTestServer, type TestServer } from "@/tests/helpers/server.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { gunzipBytes, type StoredEvent } from "./sdk_readback.ts";

/** One request the page sent to the service, as the proxy saw it. */
export interface SeenRequest {
  at: number;
  method: string;
  path: string;
  headers: Headers;
  /** Raw bytes on the wire. */
  raw: Uint8Array;
  /** The body decoded (gunzipped when Content-Encoding is gzip). */
  text: string;
  /** What the proxy answered. */
  status: number;
}

export interface Harness extends AsyncDisposable {
  server: TestServer;
  /** Base URL of the proxy the SDK posts to (forwards to the server unless told otherwise). */
  endpoint: string;
  /** Origin of the test pages. */
  pagesUrl: string;
  /** Every request the SDK made, in arrival order (preflights and settings reads excluded). */
  seen: SeenRequest[];
  /** Statuses the proxy answers to the next ingest posts instead of forwarding them. */
  failNext: number[];
  browser: Browser;
  /** Registers a page at `path` on the test origin. */
  page(path: string, html: string): void;
  /** Registers any other file on the test origin. */
  file(path: string, body: string, contentType: string): void;
  /** Registers a route answered by `handler` on the test origin (a status, a delay). */
  route(path: string, handler: (req: Request) => Response | Promise<Response>): void;
  /** A fresh browser context (own sessionStorage) with console messages collected. */
  context(): Promise<{ context: BrowserContext; page: Page; console: string[] }>;
  /** Ingest posts seen, parsed. */
  ingests(): { at: number; body: IngestJson; gzipped: boolean; bytes: number; status: number }[];
}

export interface IngestJson {
  sessionId: string;
  events: StoredEvent[];
  metadata?: Record<string, unknown>;
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "content-type, content-encoding, x-service-public-key",
  "access-control-allow-methods": "POST, OPTIONS",
};

/** The service with the dashboard's pages too (for tests that open the replay). */
async function withPages(sdkDir: string): Promise<TestServer> {
  const pages = await startPagesServer({}, { mounts: [sdkAssets({ dir: sdkDir })] });
  const t = pages.t;
  return {
    url: pages.url,
    db: t.db.kysely,
    deps: t.deps,
    logs: t.logs,
    createProject: async () => {
      const project = await insertProject(t.db.kysely);
      return { id: project.id, key: project.key };
    },
    close: async () => await pages[Symbol.asyncDispose](),
  };
}

export async function startHarness(
  options: { pages?: boolean; env?: Record<string, string> } = {},
): Promise<Harness> {
  const sdkDir = await Deno.makeTempDir({ prefix: "playhead-sdk-" });
  await buildSdk({ outDir: sdkDir, dev: false });
  await esbuild.stop();
  const server = options.pages
    ? await withPages(sdkDir)
    : await startTestServer({ mounts: [sdkAssets({ dir: sdkDir })] }, { env: options.env });

  const seen: SeenRequest[] = [];
  const failNext: number[] = [];
  const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "OPTIONS") {
      return fetch(server.url + url.pathname, { method: "OPTIONS", headers: req.headers });
    }
    if (url.pathname === "/api/sdk/config") {
      // the settings the SDK reads are passed through, not recorded: tests count what it sends
      return fetch(server.url + url.pathname, { headers: req.headers });
    }
    const raw = new Uint8Array(await req.arrayBuffer());
    const gzipped = req.headers.get("content-encoding") === "gzip";
    const text = new TextDecoder().decode(gzipped ? await gunzipBytes(raw) : raw);
    const record: SeenRequest = {
      at: Date.now(),
      method: req.method,
      path: url.pathname,
      headers: req.headers,
      raw,
      text,
      status: 0,
    };
    seen.push(record);
    if (url.pathname === "/api/ingest" && failNext.length > 0) {
      record.status = failNext.shift()!;
      return Response.json({ kind: "injected" }, { status: record.status, headers: CORS });
    }
    const upstream = await fetch(server.url + url.pathname, {
      method: req.method,
      headers: req.headers,
      body: req.method === "GET" ? undefined : raw,
    });
    record.status = upstream.status;
    return upstream;
  });

  const files = new Map<string, { body: string; type: string }>();
  const routes = new Map<string, (req: Request) => Response | Promise<Response>>();
  const pageServer = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const route = routes.get(new URL(req.url).pathname);
    if (route) return route(req);
    const file = files.get(new URL(req.url).pathname);
    if (file === undefined) return new Response("not found", { status: 404 });
    return new Response(file.body, { headers: { "content-type": file.type } });
  });

  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];

  const harness: Harness = {
    server,
    endpoint: `http://127.0.0.1:${proxy.addr.port}`,
    pagesUrl: `http://127.0.0.1:${pageServer.addr.port}`,
    seen,
    failNext,
    browser,
    page: (path, html) => void files.set(path, { body: html, type: "text/html; charset=utf-8" }),
    file: (path, body, type) => void files.set(path, { body, type }),
    route: (path, handler) => void routes.set(path, handler),
    context: async () => {
      const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
      contexts.push(context);
      const page = await context.newPage();
      const console: string[] = [];
      page.on("console", (m) => console.push(`${m.type()}: ${m.text()}`));
      return { context, page, console };
    },
    ingests: () =>
      seen.filter((r) => r.path === "/api/ingest").map((r) => ({
        at: r.at,
        body: JSON.parse(r.text) as IngestJson,
        gzipped: r.headers.get("content-encoding") === "gzip",
        bytes: r.raw.length,
        status: r.status,
      })),
    [Symbol.asyncDispose]: async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
      await proxy.shutdown();
      await pageServer.shutdown();
      await server.close();
      await Deno.remove(sdkDir, { recursive: true });
    },
  };
  return harness;
}

/** An HTML page that loads the SDK from the service's stable URL and calls `Playhead.init`. */
export function sdkPage(
  h: Harness,
  key: string,
  options: Record<string, unknown>,
  body: string,
  extraScript = "",
): string {
  const init = JSON.stringify({ apiKey: key, endpoint: h.endpoint, ...options });
  return `<!doctype html><html><head><meta charset="utf-8"><title>Test page</title>
<script src="${h.server.url}/sdk/v1/playhead.js"></script>
<script>window.ph = Playhead.init(${init});</script></head>
<body>${body}<script>${extraScript}</script></body></html>`;
}

/** Polls `fn` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(
  fn: () => Promise<T> | T,
  timeoutMs = 10_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the page's SDK has read its project's recording settings (it sends nothing before). */
export async function settingsRead(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Object.keys(localStorage).some((k) => k.startsWith("playhead:settings:"))
  );
  await page.evaluate("0"); // and the promise chain that applies them has run
}

/** Flushes until the ingest posts hold `text` (the plugin reports a request once it has its timing). */
export async function flushUntil(h: Harness, page: Page, text: string) {
  await waitFor(
    async () => {
      await withPh(page, (ph) => ph.flush());
      return h.seen.some((r) => r.path === "/api/ingest" && r.text.includes(text));
    },
    15_000,
    `an ingest holding ${text}`,
  );
}

/**
 * Waits until the network bundle the SDK imported records the page's requests: the test imports
 * the same module address, which a page loads once, and asks it.
 */
export async function networkBundleRunning(page: Page): Promise<void> {
  await waitFor(
    () =>
      page.evaluate(async () => {
        const entry = performance.getEntriesByType("resource")
          .find((e) => /\/sdk\/playhead-network-[A-Za-z0-9]+\.mjs$/.test(e.name));
        return entry ? (await import(entry.name)).running() === true : false;
      }),
    15_000,
    "the network bundle to run",
  );
}

/** Runs `body` in the page with the page's recorder (`window.ph`, from `Playhead.init`). */
export function withPh<R>(page: Page, body: (ph: Playhead) => R): Promise<Awaited<R>> {
  return page.evaluate(`(${body.toString()})(window.ph)`) as Promise<Awaited<R>>;
}

/**
 * Page script defining `burst(n, start, noise)`: n DOM mutations, each its own rrweb event, with
 * text `m<i>` (plus `noise` random characters) so tests can count events end to end.
 */
export const BURST_SCRIPT = `
window.burst = async (n, start = 0, noise = 0) => {
  let el = document.getElementById("burst");
  if (!el) { el = document.createElement("div"); el.id = "burst"; document.body.appendChild(el); }
  for (let i = start; i < start + n; i++) {
    let pad = "";
    if (noise) pad = " " + btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(noise))));
    el.textContent = "m" + i + pad;
    await new Promise((r) => queueMicrotask(r));
  }
};`;

/** The `m<i>` indices of burst mutations found in `json`, in order of appearance. */
export function burstIndices(json: string): number[] {
  return [...json.matchAll(/"textContent":"m(\d+)[" ]/g)].map((m) => Number(m[1]));
}
