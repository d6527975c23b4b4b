// Migration 0020: a signal credits the user its session is identified as, whether the identify
// came before or after it, and the back-fill (0021's rebuild, the last migration to run on stored
// sessions) credits sessions identified after their signals before the migration.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import { customEvent, METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";

const T0 = Date.now() - 60_000;
const rage = (timestamp: number) =>
  customEvent("service:rage_click", { selector: "button#buy", text: "Buy", x: 1, y: 2 }, timestamp);
const error = (message: string, timestamp: number) => ({
  type: 6,
  data: {
    plugin: "rrweb/console@1",
    payload: { level: "error", trace: [], payload: [JSON.stringify(message)] },
  },
  timestamp,
});
const identified = (userId: string) => ({ ...METADATA, userIdentity: { userId, traits: {} } });

type World = Awaited<ReturnType<typeof sessionsWorld>>;

/** A session with a rage click and an error, then (in a later batch) an identify. */
async function visit(app: Parameters<typeof postIngest>[0], key: string, userId: string) {
  const sessionId = crypto.randomUUID();
  const first = {
    sessionId,
    events: [...recordedEvents(2, T0), rage(T0 + 3000), error("boom", T0 + 3100)],
    metadata: METADATA,
  };
  assert.equal((await postIngest(app, first, { key })).status, 204);
  const later = { sessionId, events: recordedEvents(1, T0 + 9000), metadata: identified(userId) };
  assert.equal((await postIngest(app, later, { key })).status, 204);
}

const users = async (w: World) => {
  const { body } = await w.get("/api/insights?range=7d");
  return {
    rage: body.rageClicks.map((r: { users: number }) => r.users),
    errors: body.errors.map((r: { users: number }) => r.users),
  };
};

Deno.test("insights: a signal before the identify counts the session's user", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  await visit(t.app, w.alpha.key, "ada");
  assert.deepEqual(await users(w), { rage: [1], errors: [1] });
  // another user's session with the same signals, identified late too: two users
  await visit(t.app, w.alpha.key, "bob");
  assert.deepEqual(await users(w), { rage: [2], errors: [2] });
});

Deno.test("insights: the back-fill credits sessions identified after their signals", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  await sql`DROP TRIGGER sessions_identified_signal_users ON sessions`.execute(w.db);
  await visit(t.app, w.alpha.key, "ada");
  assert.deepEqual(await users(w), { rage: [0], errors: [0] }); // as before the migration
  await sql`SELECT rebuild_signal_rollups()`.execute(w.db);
  assert.deepEqual(await users(w), { rage: [1], errors: [1] });
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM signal_users`.execute(w.db);
  assert.equal(Number(rows[0].n), 2);
});
