// The HTTP server: a fetch handler on node:http, for its connection timeouts. Deno.serve (2.9)
// has none: a connection that sends half a request head, an idle keep-alive connection, and one
// whose body stalls after the app answered 408 all stay open for as long as the client likes
// (measured: 10 minutes and counting; README "Deployment"). Deno's node:http is Node's server,
// with `headersTimeout`, `requestTimeout` and `keepAliveTimeout`; @hono/node-server bridges it
// to the same `(Request, info) => Response` handler Deno.serve takes.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { log } from "./log.ts";

export interface ConnectionTimeouts {
  /** A request head (request line and headers) must arrive within this; an idle keep-alive
   * connection is closed after it too. */
  headerTimeoutMs: number;
  /** The app's own body timeout (http/body.ts answers 408 with the error body at this point). */
  bodyTimeoutMs: number;
  /** A connection on which nothing is read or written for this long is closed: a client that
   * stops reading an answer (a replay's events stream) holds its buffers no longer.
   * Longer than any database budget, so a slow answer is not cut. */
  idleTimeoutMs?: number;
}

export interface ServeOptions extends ConnectionTimeouts {
  port: number;
  hostname?: string;
}

/** What Deno.serve hands a handler, as far as the app uses it (http/client_address.ts). */
export interface ServeInfo {
  remoteAddr: { transport: "tcp"; hostname: string; port: number };
}

export type FetchHandler = (req: Request, info: ServeInfo) => Response | Promise<Response>;

export interface HttpServer {
  addr: { hostname: string; port: number };
  /** Stops accepting, closes idle connections, resolves when running requests have finished. */
  shutdown(): Promise<void>;
}

/** The app's body timeout answers first; past this margin the server itself ends the request. */
const BACKSTOP_MARGIN_MS = 1_000;

/** Node's settings for `timeouts` (exported for the test that holds them to the measurements). */
export function nodeTimeouts({ headerTimeoutMs, bodyTimeoutMs }: ConnectionTimeouts) {
  return {
    headersTimeout: headerTimeoutMs,
    // A whole request (head and body): a backstop for a body no handler reads (Node answers a
    // bare 408 and closes); the app's 408 with its error body comes first.
    requestTimeout: headerTimeoutMs + bodyTimeoutMs + BACKSTOP_MARGIN_MS,
    keepAliveTimeout: headerTimeoutMs,
    // How often Node looks for expired heads and requests (default 30 s, added to every bound).
    connectionsCheckingInterval: Math.min(1_000, headerTimeoutMs),
  };
}

export async function serve(handler: FetchHandler, options: ServeOptions): Promise<HttpServer> {
  const listener = getRequestListener(
    (req, env) => handler(req, { remoteAddr: remoteAddr(env.incoming as IncomingMessage) }),
    // Keep the platform's Request and Response (the adaptor's lighter ones are for Node).
    { overrideGlobalObjects: false },
  );
  const server = createServer(nodeTimeouts(options), listener);
  if (options.idleTimeoutMs) {
    server.setTimeout(options.idleTimeoutMs, (socket: Socket) => {
      log.warn("http:connection:idle_closed", { idleTimeoutMs: options.idleTimeoutMs });
      socket.destroy();
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname ?? "0.0.0.0", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    addr: { hostname: address.address, port: address.port },
    shutdown: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

function remoteAddr(incoming: IncomingMessage): ServeInfo["remoteAddr"] {
  const socket = incoming.socket;
  return { transport: "tcp", hostname: socket.remoteAddress ?? "", port: socket.remotePort ?? 0 };
}
