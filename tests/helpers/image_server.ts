// A recorded site's image server on a 127.0.0.1 port, for the export's image fetching: it serves
// the routes it is given (a red 7×5 PNG by default) and records every request it sees, so a test
// can prove that a refused address was never connected to.
export const RED_PNG = Uint8Array.fromBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFCAIAAAAG+GGPAAAAEUlEQVR42mM4ISeHiRhoJAoAuykjjUBwTswAAAAASUVORK5CYII=",
);
export const RED_PNG_WIDTH = 7;

export type Route = (request: Request) => Response | Promise<Response>;

export interface ImageServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `127.0.0.1:<port>`, as EXPORT_FETCH_ALLOW_HOSTS names it. */
  host: string;
  /** The path and query of every request seen, in order. */
  seen: string[];
  /** Settles when the server stops: a route that never answers awaits it. */
  closed: Promise<void>;
}

export const png = (bytes: Uint8Array = RED_PNG): Response =>
  new Response(bytes.slice(), { headers: { "content-type": "image/png" } });

export function startImageServer(routes: Record<string, Route> = {}): ImageServer {
  const seen: string[] = [];
  const { promise: closed, resolve: close } = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    seen.push(url.pathname + url.search);
    const route = routes[url.pathname];
    return route ? route(request) : new Response("not here", { status: 404 });
  });
  const host = `127.0.0.1:${server.addr.port}`;
  return {
    origin: `http://${host}`,
    host,
    seen,
    closed,
    [Symbol.asyncDispose]: async () => {
      close();
      await server.shutdown();
    },
  };
}
