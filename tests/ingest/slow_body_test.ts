// A request body that does not finish arriving within HTTP_BODY_TIMEOUT_MS is
// answered 408 `request_timeout` and its connection closed, over a real socket against the real
// server: with a declared Content-Length and chunked, one or two hundred at once; a body that is
// slow but complete within the limit is still stored.
import assert from "node:assert/strict";
import { METADATA, recordedEvents } from "@/tests/helpers/ingest.ts";
import { jsonBodyOf, rawConnect, statusOf } from "@/tests/helpers/raw_http.ts";
import { startTestServer, type TestServer } from "@/tests/helpers/server.ts";

const BODY_TIMEOUT_MS = 300;
/** How long a test waits for the server's answer before calling it kept open. */
const GIVE_UP_MS = 10_000;

function batchJson(sessionId = crypto.randomUUID()): string {
  return JSON.stringify({ sessionId, events: recordedEvents(3), metadata: METADATA });
}

function ingestHead(server: TestServer, key: string, framing: string): string {
  const host = new URL(server.url).host;
  return `POST /api/ingest HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
    `X-Service-Public-Key: ${key}\r\n${framing}\r\n\r\n`;
}

function assertTimedOut(answer: { text: string; closed: boolean }) {
  assert.equal(statusOf(answer.text), 408, answer.text.slice(0, 200) || "(no answer)");
  assert.match(answer.text, /\r\nconnection: close\r\n/i);
  assert.match(answer.text, /\r\naccess-control-allow-origin: \*\r\n/i);
  const body = jsonBodyOf(answer.text) as { kind: string; message: string };
  assert.equal(body.kind, "request_timeout");
  assert.match(body.message, /did not arrive in time/);
  assert.ok(answer.closed, "the server closes the connection");
}

async function withServer(
  bodyTimeoutMs: number,
  run: (s: TestServer, key: string) => Promise<void>,
) {
  const server = await startTestServer({}, {
    env: { HTTP_BODY_TIMEOUT_MS: String(bodyTimeoutMs) },
  });
  try {
    const { key } = await server.createProject();
    await run(server, key);
  } finally {
    await server.close();
  }
}

Deno.test("slow body: a Content-Length body that stalls is answered 408 and the socket closed", async () => {
  await withServer(BODY_TIMEOUT_MS, async (server, key) => {
    const json = batchJson();
    const conn = await rawConnect(server.url);
    await conn.write(ingestHead(server, key, `Content-Length: ${json.length}`) + json.slice(0, 20));
    assertTimedOut(await conn.readUntilClosed(GIVE_UP_MS));
    assert.equal((await server.db.selectFrom("sessions").select("id").execute()).length, 0);
  });
});

Deno.test("slow body: a chunked body that trickles and stalls is answered 408 and the socket closed", async () => {
  await withServer(BODY_TIMEOUT_MS, async (server, key) => {
    const json = batchJson();
    const conn = await rawConnect(server.url);
    await conn.write(ingestHead(server, key, "Transfer-Encoding: chunked"));
    for (const piece of [json.slice(0, 10), json.slice(10, 20)]) {
      await conn.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assertTimedOut(await conn.readUntilClosed(GIVE_UP_MS));
  });
});

Deno.test("slow body: a body sent in slow pieces that completes within the limit is stored (204)", async () => {
  await withServer(10_000, async (server, key) => {
    const sessionId = crypto.randomUUID();
    const json = batchJson(sessionId);
    const conn = await rawConnect(server.url);
    await conn.write(
      ingestHead(server, key, `Content-Length: ${json.length}\r\nConnection: close`),
    );
    const third = Math.ceil(json.length / 3);
    for (let at = 0; at < json.length; at += third) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await conn.write(json.slice(at, at + third));
    }
    const answer = await conn.readUntilClosed(GIVE_UP_MS);
    assert.equal(statusOf(answer.text), 204, answer.text.slice(0, 200));
    const stored = await server.db.selectFrom("sessions").select("external_id").execute();
    assert.deepEqual(stored.map((s) => s.external_id), [sessionId]);
  });
});

Deno.test("slow body: 200 stalled ingest bodies are all answered 408 and released", async () => {
  await withServer(BODY_TIMEOUT_MS, async (server, key) => {
    const json = batchJson();
    const answers = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
      const conn = await rawConnect(server.url);
      const framing = i % 2 ? "Transfer-Encoding: chunked" : `Content-Length: ${json.length}`;
      await conn.write(
        ingestHead(server, key, framing) + (i % 2 ? '5\r\n{"ses' : json.slice(0, 5)),
      );
      return await conn.readUntilClosed(GIVE_UP_MS);
    }));
    const statuses = Map.groupBy(answers, (a) => statusOf(a.text));
    assert.deepEqual([...statuses.keys()], [408]);
    assert.equal(answers.filter((a) => a.closed).length, 200);
  });
});
