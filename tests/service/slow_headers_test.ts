// Connections that never finish their request head (slowloris), that trickle it, or
// that sit idle after a response are closed after HTTP_HEADER_TIMEOUT_MS, over raw sockets against
// the real server (serve.ts). Deno.serve kept every one of them open (README "Deployment").
import assert from "node:assert/strict";
import { rawConnect, statusOf } from "@/tests/helpers/raw_http.ts";
import { startTestServer, type TestServer } from "@/tests/helpers/server.ts";

const HEADER_TIMEOUT_MS = 300;
/** How long a test waits for the server to close before calling the connection kept open. */
const GIVE_UP_MS = 10_000;

async function withServer(run: (server: TestServer) => Promise<void>) {
  const server = await startTestServer({}, {
    env: { HTTP_HEADER_TIMEOUT_MS: String(HEADER_TIMEOUT_MS) },
  });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("slow headers: half a request line, half a head, or nothing at all: each connection is closed", async () => {
  await withServer(async (server) => {
    const starts = ["", "GET /api/hea", "GET /api/health HTTP/1.1\r\nHost: a\r\nAcc"];
    const answers = await Promise.all(starts.map(async (start) => {
      const conn = await rawConnect(server.url);
      if (start) await conn.write(start);
      return await conn.readUntilClosed(GIVE_UP_MS);
    }));
    for (const [i, answer] of answers.entries()) {
      assert.ok(answer.closed, `connection ${JSON.stringify(starts[i])} was kept open`);
      // Whatever the server says before closing, it is never a served request.
      assert.ok([0, 408].includes(statusOf(answer.text)), answer.text);
    }
  });
});

Deno.test("slow headers: a head trickled one line at a time past the limit is closed (slowloris)", async () => {
  await withServer(async (server) => {
    const conn = await rawConnect(server.url);
    await conn.write("GET /api/health HTTP/1.1\r\nHost: a\r\n");
    const closed = conn.readUntilClosed(GIVE_UP_MS);
    let sent = 0;
    const trickle = (async () => {
      // A new header line every 100 ms keeps an idle timer from ever firing; the head never ends.
      for (; sent < GIVE_UP_MS / 100; sent++) {
        await sleep(100);
        await conn.write(`X-Slow-${sent}: 1\r\n`).catch(() => (sent = Infinity));
      }
    })();
    const answer = await closed;
    await trickle;
    assert.ok(answer.closed, "the trickling connection was kept open");
    assert.equal(statusOf(answer.text) === 200, false, answer.text);
  });
});

Deno.test("slow headers: an idle keep-alive connection is closed after its response", async () => {
  await withServer(async (server) => {
    const conn = await rawConnect(server.url);
    await conn.write("GET /api/health HTTP/1.1\r\nHost: a\r\n\r\n");
    const answer = await conn.readUntilClosed(GIVE_UP_MS);
    assert.equal(statusOf(answer.text), 200, answer.text.slice(0, 200));
    assert.ok(answer.closed, "the idle keep-alive connection was kept open");
  });
});

Deno.test("slow headers: 200 stalled heads are all released, and the service answers meanwhile", async () => {
  await withServer(async (server) => {
    const conns = await Promise.all(Array.from({ length: 200 }, () => rawConnect(server.url)));
    await Promise.all(conns.map((conn) => conn.write("POST /api/ingest HTTP/1.1\r\nHost: a\r\n")));
    const released = Promise.all(conns.map((conn) => conn.readUntilClosed(GIVE_UP_MS)));
    const health = await fetch(`${server.url}/api/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    const answers = await released;
    assert.equal(answers.filter((a) => a.closed).length, 200);
  });
});

Deno.test("slow headers: a request whose head arrives in slow pieces within the limit is served", async () => {
  await withServer(async (server) => {
    const conn = await rawConnect(server.url);
    for (
      const piece of ["GET /api/he", "alth HTTP/1.1\r\nHost: a\r\n", "Connection: close\r\n\r\n"]
    ) {
      await conn.write(piece);
      await sleep(50);
    }
    const answer = await conn.readUntilClosed(GIVE_UP_MS);
    assert.equal(statusOf(answer.text), 200, answer.text.slice(0, 200));
  });
});
