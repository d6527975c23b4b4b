// Loopback server for the SDK overhead benchmark: the heavy page (plain and with the SDK), the SDK
// script, and a sink answering 204 to every ingest post, keeping the bodies to count afterwards.
import { gunzipSync } from "node:zlib";
import { EventType } from "@rrweb/types";
import { BUFFER_KEY, BUFFER_SETTINGS } from "./buffer_mode.ts";
import { DEFAULT_RECORDING } from "@/core/projects/recording_limits.ts";

/** What the sink received during one run, measured after the run. */
export interface SinkSummary {
  requests: number;
  /** Bytes on the wire (gzipped bodies as sent). */
  wireBytes: number;
  events: number;
  /** JSON size of the largest full snapshot (type 2) and the largest incremental (type 3). */
  largestSnapshot: number;
  largestIncremental: number;
}

export interface PageServer extends AsyncDisposable {
  url: string;
  /** Forgets the ingest posts received so far. */
  reset(): void;
  /** Decodes and counts the ingest posts received since the last reset. */
  summary(): Promise<SinkSummary>;
}

/** `pages` receives the server's origin (the SDK's endpoint) and returns the two pages. */
export function startPageServer(
  pages: (origin: string) => { plain: string; recorded: string; buffered: string },
  sdkScript: string,
): PageServer {
  let posts: { raw: Uint8Array; gzipped: boolean }[] = [];
  const html = { "content-type": "text/html; charset=utf-8" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path.startsWith("/api/")) {
      const raw = new Uint8Array(await req.arrayBuffer());
      if (path === "/api/ingest") {
        posts.push({ raw, gzipped: req.headers.get("content-encoding") === "gzip" });
      }
      return new Response(null, { status: 204 });
    }
    if (path === "/api/sdk/config") {
      // The buffered page's key gets buffer mode; the recorded page's everything recorded.
      const buffered = req.headers.get("x-service-public-key") === BUFFER_KEY;
      return Response.json(buffered ? BUFFER_SETTINGS : DEFAULT_RECORDING);
    }
    if (path === "/plain") return new Response(files.plain, { headers: html });
    if (path === "/buffered") return new Response(files.buffered, { headers: html });
    if (path === "/recorded") return new Response(files.recorded, { headers: html });
    if (path === "/sdk/playhead.js") {
      return new Response(sdkScript, { headers: { "content-type": "text/javascript" } });
    }
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    return new Response("not found", { status: 404 });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const files = pages(url);
  return {
    url,
    reset: () => void (posts = []),
    summary: async () => {
      const summary: SinkSummary = {
        requests: posts.length,
        wireBytes: 0,
        events: 0,
        largestSnapshot: 0,
        largestIncremental: 0,
      };
      for (const post of posts) {
        summary.wireBytes += post.raw.length;
        const body = JSON.parse(await decode(post.raw, post.gzipped));
        for (const event of body.events as { type: number }[]) {
          summary.events++;
          const size = JSON.stringify(event).length;
          if (event.type === EventType.FullSnapshot) {
            summary.largestSnapshot = Math.max(summary.largestSnapshot, size);
          }
          if (event.type === EventType.IncrementalSnapshot) {
            summary.largestIncremental = Math.max(summary.largestIncremental, size);
          }
        }
      }
      return summary;
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** The SDK's gzip bodies are a member per part (sdk/send/transport.ts): zlib reads them as one. */
function decode(raw: Uint8Array, gzipped: boolean): Promise<string> {
  return Promise.resolve(new TextDecoder().decode(gzipped ? gunzipSync(raw) : raw));
}
