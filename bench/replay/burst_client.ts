// The client of `first_frame_limit.ts`, run in a Worker of its own: the views and the probe read
// their answers on this thread, so the server's thread carries only the server, as it does when
// browsers elsewhere ask for the pages.

/** What the bench asks: `count` views of one page one after another, or the pages all at once. */
export type ClientRequest =
  & { url: string; cookie: string }
  & ({ kind: "views"; sessionId: string; count: number } | { kind: "burst"; sessions: string[] });

export interface View {
  serverMs: number;
  /** The page's bytes, and its frame document's when it loads one from its own address. */
  bytes: number;
  framed: boolean;
}

export interface Burst {
  wallMs: number;
  probeMaxMs: number;
  framed: number;
}

/** A replay page without a frame is ~6 KiB; with one inline, several MiB. */
const FRAMED_BYTES = 64 * 1024;

async function view({ url, cookie }: ClientRequest, sessionId: string): Promise<View> {
  const headers = { cookie };
  const res = await fetch(`${url}/replays/${sessionId}`, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`replay page answered ${res.status}`);
  const timing = res.headers.get("server-timing") ?? "";
  const serverMs = Number(/app;dur=([\d.]+)/.exec(timing)?.[1] ?? NaN);
  // As a browser does: the frame's own document, when the page loads one.
  const src = /<iframe [^>]*src="(\/replays\/frame\/[^"]+)"/.exec(body)?.[1];
  const frame = src ? await (await fetch(url + src, { headers })).arrayBuffer() : null;
  const bytes = body.length + (frame?.byteLength ?? 0);
  return { serverMs, bytes, framed: !!frame || body.length > FRAMED_BYTES };
}

/** The sessions viewed at once while a 404 is asked for again and again: its longest wait. */
async function burst(request: ClientRequest, sessions: string[]): Promise<Burst> {
  let running = true;
  let probeMaxMs = 0;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${request.url}/api/no-such-endpoint`)).body?.cancel();
      probeMaxMs = Math.max(probeMaxMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const started = performance.now();
  const views = await Promise.all(sessions.map((id) => view(request, id)));
  const wallMs = performance.now() - started;
  running = false;
  await probe;
  return { wallMs, probeMaxMs, framed: views.filter((v) => v.framed).length };
}

const scope = self as unknown as Worker;
scope.onmessage = async ({ data }: MessageEvent<ClientRequest>) => {
  if (data.kind === "burst") return scope.postMessage(await burst(data, data.sessions));
  const views = [];
  for (let i = 0; i < data.count; i++) views.push(await view(data, data.sessionId));
  scope.postMessage(views);
};
