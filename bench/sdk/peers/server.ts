// One loopback server for the peer benchmark: the reference pages with a recorder's scripts in
// their <head> (`?rec=<name>`), the recorders' bundles (/rec/<name>/…), and each recorder's sink
// (/sink/<name>/…), which answers as its service would and keeps every request to count.
import type { Recorder, SinkRequest } from "./recorder.ts";

/** A reference page: its path and its HTML given the recorder's <head> scripts. */
export interface ReferencePage {
  name: string;
  path: string;
  html(head: string): string;
}

export interface PeerServer extends AsyncDisposable {
  url: string;
  /** Starts a visit: forgets earlier requests; `at` of new ones counts from now. */
  reset(): void;
  /** The requests each recorder's sink received since the last reset. */
  requests(name: string): SinkRequest[];
}

export function startPeerServer(pages: ReferencePage[], recorders: Recorder[]): PeerServer {
  const byName = new Map(recorders.map((r) => [r.name, r]));
  let log: (SinkRequest & { recorder: string })[] = [];
  let started = performance.now();
  const html = { "content-type": "text/html; charset=utf-8" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    const sink = /^\/sink\/([^/]+)(\/.*)?$/.exec(path);
    if (sink) {
      const recorder = byName.get(sink[1]);
      if (!recorder) return new Response("no such recorder", { status: 404 });
      const rest = (sink[2] ?? "/") + url.search;
      // A request cut off as the page is left still counts what arrived of it.
      const body = new Uint8Array(await req.arrayBuffer().catch(() => new ArrayBuffer(0)));
      log.push({
        recorder: recorder.name,
        at: performance.now() - started,
        method: req.method,
        path: rest,
        headers: req.headers,
        body,
        // A body cut off by leaving the page is counted at the length the browser announced.
        wireBytes: Math.max(body.length, Number(req.headers.get("content-length") ?? 0)),
      });
      return recorder.answer(rest, req);
    }
    const file = /^\/rec\/([^/]+)\/([^/]+)$/.exec(path);
    if (file) {
      const script = byName.get(file[1])?.files[file[2]];
      if (script === undefined) return new Response("not found", { status: 404 });
      return new Response(script, { headers: { "content-type": "text/javascript" } });
    }
    if (path === "/end") {
      return new Response("<!doctype html><title>end</title>", { headers: html });
    }
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    const page = pages.find((p) => path === p.path || path.startsWith(`${p.path}/`));
    if (!page) return new Response("not found", { status: 404 });
    const recorder = byName.get(url.searchParams.get("rec") ?? "none");
    if (!recorder) return new Response("no such recorder", { status: 404 });
    return new Response(page.html(recorder.head), { headers: html });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    reset: () => {
      log = [];
      started = performance.now();
    },
    requests: (name) => log.filter((r) => r.recorder === name),
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
