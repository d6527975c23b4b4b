// A client that asks for a large session's events and stops reading does not hold
// the connection (and the buffered batches) for ever: the server closes it once nothing has been
// read or written on it for HTTP_IDLE_TIMEOUT_MS. A client that reads gets the whole answer.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { cookieFor } from "@/tests/helpers/auth.ts";
import { insertMembership, insertUser } from "@/tests/helpers/factories.ts";
import { rawConnect } from "@/tests/helpers/raw_http.ts";
import { startTestServer } from "@/tests/helpers/server.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";

// Long enough that a reader is never cut while the database fetches the next batches.
const IDLE_MS = 2_000;
// 64 MiB stored, 85 MiB of base64: more than the socket buffers on both ends can take (Linux
// lets a loopback receive buffer grow to tcp_rmem's 32 MiB).
const BATCHES = 64;
const BATCH_BYTES = 1024 * 1024;

Deno.test("events stream: a client that stops reading is disconnected after the idle timeout", async () => {
  const server = await startTestServer({}, { env: { HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
  try {
    const project = await server.createProject();
    const db = server.db;
    const { organization_id } = await db.selectFrom("projects").select("organization_id")
      .where("id", "=", project.id).executeTakeFirstOrThrow();
    const user = await insertUser(db);
    await insertMembership(db, organization_id, user.id, "OWNER");
    await db.updateTable("users").set({ active_organization_id: organization_id })
      .where("id", "=", user.id).execute();
    const cookie = await cookieFor(
      { deps: server.deps } as Parameters<typeof cookieFor>[0],
      user.id,
    );
    const session = await insertSession(db, {
      id: project.id,
      organization_id,
    });
    // Random bytes stand for stored gzip: the stream sends them as they are, base64. One batch is
    // written from here, the others copied from it by the database.
    const data = new Uint8Array(BATCH_BYTES);
    for (let o = 0; o < data.length; o += 65536) {
      crypto.getRandomValues(data.subarray(o, o + 65536));
    }
    await db.insertInto("event_batches").values({
      project_id: project.id,
      session_external_id: session.external_id,
      session_created_at: session.created_at,
      first_ts: 1_000,
      last_ts: 1_000,
      event_count: 1,
      digest: crypto.getRandomValues(new Uint8Array(32)),
      data,
    }).execute();
    await sql`INSERT INTO event_batches (project_id, session_external_id, session_created_at,
        first_ts, last_ts, event_count, digest, data)
      SELECT project_id, session_external_id, session_created_at, 1000 + i, 1000 + i, 1,
        sha256(i::text::bytea), data
      FROM event_batches, generate_series(1, ${BATCHES - 1}) AS i`.execute(db);
    const host = new URL(server.url).host;
    const request = `GET /api/sessions/${session.id}/events HTTP/1.1\r\nHost: ${host}\r\n` +
      `Cookie: ${cookie}\r\n\r\n`;

    // A client that stops reading (the only connection so far) is closed once it has idled.
    const staller = await rawConnect(server.url);
    await staller.write(request);
    const closedIdle = () => server.logs.some((l) => l.tag === "http:connection:idle_closed");
    for (let waited = 0; !closedIdle() && waited < 60_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(closedIdle(), "the server logged closing an idle connection");
    const cut = await staller.readUntilClosed(30_000);
    staller.close();
    assert.ok(cut.closed, "the server closed the connection");
    // A client that reads gets every batch: more than the staller was sent.
    const whole = await fetch(`${server.url}/api/sessions/${session.id}/events`, {
      headers: { cookie },
    });
    assert.equal(whole.status, 200);
    const wholeBytes = (await whole.bytes()).byteLength;
    assert.ok(wholeBytes > BATCHES * BATCH_BYTES, `${wholeBytes} bytes`);

    assert.ok(cut.text.length < wholeBytes, `${cut.text.length} of ${wholeBytes} bytes`);
  } finally {
    await server.close();
  }
});
