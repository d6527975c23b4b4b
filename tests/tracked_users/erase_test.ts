// Erasing a tracked user, on PGlite or PostgreSQL (DATABASE_URL): their sessions
// and everything of them go in one transaction, whatever their number, leaving no recorded text of
// theirs in any table; a late batch for an erased session is 410 and recreates nothing; a failure
// mid-erasure changes nothing; roles and bad ids; a session deleted alone or cancelled is refused
// the same way.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { openSharedSession } from "@/core/shares/open.ts";
import { runCleanup } from "@/core/service/cleanup.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { customEvent, METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";
import { counts, tablesHolding } from "@/tests/helpers/erasure.ts";

const T0 = recent(1_760_000_000_000);
const SECRET = "Xavier-7f3a-private-note";
const KEPT = "Yvonne-c41d-kept-note";

/** A session of `userId` whose events, a marker, an error and the traits hold `text`. */
async function record(
  t: { app: Parameters<typeof postIngest>[0] },
  key: string,
  userId: string,
  text: string,
  errorAt = T0 + 3_600,
) {
  const sessionId = crypto.randomUUID();
  const events = [
    ...recordedEvents(3, T0),
    { type: 3, data: { source: 0, texts: [{ id: 1, value: text }] }, timestamp: T0 + 3_000 },
    customEvent("service:note", { text }, T0 + 3_500),
    {
      type: 6,
      data: {
        plugin: "rrweb/console@1",
        payload: { level: "error", trace: ["at f (app.js:1:2)"], payload: [`"${text} failed"`] },
      },
      timestamp: errorAt,
    },
    customEvent("service:url", { url: `https://shop.test/${text}`, pathname: `/${text}` }, T0 + 10),
  ];
  const metadata = { ...METADATA, userIdentity: { userId, traits: { note: text } } };
  const res = await postIngest(t.app, { sessionId, events, metadata }, { key });
  assert.equal(res.status, 204);
  return sessionId;
}

Deno.test("erase: a tracked user and all of theirs go at once; late batches are refused", async (s) => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const orgId = project.organization_id;
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: orgId });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: orgId });
  const xSessions = [
    await record(t, project.key, "xavier@example.test", SECRET),
    // Its error's key ("<id> failed", folded) is Y's too, and the latest: the rollup shows its text.
    await record(t, project.key, "xavier@example.test", SECRET, T0 + 5_000),
  ];
  const ySession = await record(t, project.key, "yvonne@example.test", KEPT);
  const idOf = async (ext: string) =>
    (await db.selectFrom("sessions").select("id").where("external_id", "=", ext)
      .executeTakeFirstOrThrow()).id;
  const xIds = await Promise.all(xSessions.map(idOf));
  const x = (await db.selectFrom("tracked_users").select("id")
    .where("external_id", "=", "xavier@example.test").executeTakeFirstOrThrow()).id;
  // A data key as the offloader would have made, a link and a comment on X's first session.
  await db.insertInto("session_data_keys")
    .values(xIds.map((id) => ({ session_id: id, kek_id: "k", wrapped: new Uint8Array(40) })))
    .execute();
  const share = await call(t.app, "POST", `/api/sessions/${xIds[0]}/shares`, {
    cookie: admin.cookie,
    body: {},
  });
  assert.equal(share.status, 201);
  const token = new URL((await share.json()).url).pathname.split("/").at(-1)!;
  const linkOpens = async () => !!await openSharedSession(t.deps, token, "192.0.2.1");
  const comment = await call(t.app, "POST", `/api/sessions/${xIds[0]}/comments`, {
    cookie: admin.cookie,
    body: { offsetMs: 0, text: `about ${SECRET}` },
  });
  assert.equal(comment.status, 201);
  assert.equal(await linkOpens(), true);

  await s.step("VIEWER 403, unknown id 404; nothing changes", async () => {
    const before = await counts(db);
    const denied = await call(t.app, "POST", `/api/tracked-users/${x}/erase`, {
      cookie: viewer.cookie,
    });
    assert.equal(denied.status, 403);
    for (const id of ["nope", "%20", "x".repeat(300)]) {
      const res = await call(t.app, "POST", `/api/tracked-users/${id}/erase`, {
        cookie: admin.cookie,
      });
      assert.equal(res.status, 404, id);
    }
    assert.deepEqual(await counts(db), before);
  });

  await s.step("a failure at the erasure's last step rolls all of it back", async () => {
    const before = await counts(db);
    await sql`CREATE FUNCTION erase_fails() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated failure'; END $$`.execute(db);
    await sql`CREATE TRIGGER erase_fails BEFORE INSERT ON erased_tracked_users
      FOR EACH ROW EXECUTE FUNCTION erase_fails()`.execute(db);
    const res = await call(t.app, "POST", `/api/tracked-users/${x}/erase`, {
      cookie: admin.cookie,
    });
    assert.equal(res.status, 500);
    await sql`DROP TRIGGER erase_fails ON erased_tracked_users`.execute(db);
    await sql`DROP FUNCTION erase_fails()`.execute(db);
    assert.deepEqual(await counts(db), before);
    assert.equal(await linkOpens(), true);
  });

  await s.step("ADMIN erases: counts, 404 everywhere, no text of theirs in any table", async () => {
    // The alert rollups (migration 0039) hold the groups of both: pages, selectors, error keys.
    const alertRollups = [
      "alert_signal_last",
      "alert_signal_last_counts",
      "alert_signal_last_hours",
      "alert_signal_minutes",
    ];
    assert.deepEqual(await tablesHolding(db, KEPT), [
      ...alertRollups,
      "event_batches.data",
      "markers",
      "sessions",
      "signal_rollups",
      "tracked_users",
    ]);
    assert.deepEqual(await tablesHolding(db, SECRET), [
      ...alertRollups,
      "event_batches.data",
      "markers",
      "session_comments",
      "sessions",
      "signal_rollups",
      "tracked_users",
    ]);
    const res = await call(t.app, "POST", `/api/tracked-users/${x}/erase`, {
      cookie: admin.cookie,
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.sessions, 2);
    assert.equal(body.batches, 2);
    assert.equal(body.keysDestroyed, 2);
    assert.ok(body.inlineBytes > 0);
    assert.ok(Date.parse(body.endedAt) >= Date.parse(body.startedAt));
    for (const id of xIds) {
      for (const path of [`/api/sessions/${id}`, `/api/sessions/${id}/events`]) {
        const r = await call(t.app, "GET", path, { cookie: admin.cookie });
        assert.equal(r.status, 404, path);
      }
    }
    const user = await call(t.app, "GET", `/api/tracked-users/${x}`, { cookie: admin.cookie });
    assert.equal(user.status, 404);
    assert.equal(await linkOpens(), false);
    assert.deepEqual(await tablesHolding(db, SECRET), []);
    assert.deepEqual(await tablesHolding(db, "xavier@example.test"), []);
    // The error key X shared with Y shows Y's latest text now.
    assert.ok((await tablesHolding(db, KEPT)).includes("signal_rollups"));
    // Y is untouched.
    const y = await call(t.app, "GET", `/api/sessions/${await idOf(ySession)}`, {
      cookie: admin.cookie,
    });
    assert.equal(y.status, 200);
    const audit = await sql<{ details: string }>`
      SELECT details::text AS details FROM audit_log WHERE action = 'tracked_user.erase'`.execute(
      db,
    );
    assert.equal(audit.rows.length, 1);
    assert.deepEqual(JSON.parse(audit.rows[0].details), body);
  });

  await s.step("a late batch for an erased session is 410 and recreates nothing", async () => {
    const before = await counts(db);
    const events = [...recordedEvents(2, T0 + 60_000), customEvent("service:x", {}, T0 + 61_000)];
    for (
      const metadata of [undefined, {
        ...METADATA,
        userIdentity: { userId: "xavier@example.test" },
      }]
    ) {
      const res = await postIngest(t.app, { sessionId: xSessions[0], events, metadata }, {
        key: project.key,
      });
      assert.equal(res.status, 410);
    }
    assert.deepEqual(await counts(db), before);
  });

  await s.step("a new visit identified as X is new data, linked to nothing old", async () => {
    const fresh = await record(t, project.key, "xavier@example.test", "new-visit");
    const row = await db.selectFrom("tracked_users").select(["id", "session_count"])
      .where("external_id", "=", "xavier@example.test").executeTakeFirstOrThrow();
    assert.notEqual(row.id, x);
    assert.equal(row.session_count, 1);
    assert.ok(fresh);
  });

  await s.step(
    "a session deleted alone, or cancelled by the SDK, refuses late batches",
    async () => {
      const deleted = await record(t, project.key, "zed@example.test", "alone");
      const deletedId = await idOf(deleted);
      const del = await call(t.app, "DELETE", `/api/sessions/${deletedId}`, {
        cookie: admin.cookie,
      });
      assert.equal(del.status, 204);
      const audited = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM audit_log
        WHERE action = 'session.delete' AND target_id = ${deletedId}`.execute(db);
      assert.equal(audited.rows[0].n, 1);
      const cancelled = await record(t, project.key, "zed@example.test", "cancel");
      const c = await postIngest(
        t.app,
        { sessionId: cancelled },
        { key: project.key },
        "/api/sessions/cancel",
      );
      assert.equal(c.status, 204);
      // Nothing of the sessions is left; the user's traits (theirs, not a session's) stay.
      for (const text of ["alone", "cancel"]) {
        const left = (await tablesHolding(db, text)).filter((table) => table !== "tracked_users");
        assert.deepEqual(left, [], text);
      }
      const before = await counts(db);
      for (const sessionId of [deleted, cancelled]) {
        const res = await postIngest(t.app, { sessionId, events: recordedEvents(2, T0) }, {
          key: project.key,
        });
        assert.equal(res.status, 410);
      }
      assert.deepEqual(await counts(db), before);
    },
  );

  await s.step(
    "the cleanup keeps a tombstone 30 days to the millisecond, then sweeps it",
    async () => {
      await sql`DELETE FROM erased_sessions`.execute(db);
      const at = new Date("2026-01-10T12:00:00.000Z");
      await db.insertInto("erased_sessions")
        .values({ project_id: project.id, external_id: xSessions[0], erased_at: at }).execute();
      const left = async (ms: number) => {
        await runCleanup(t.deps, new Date(at.getTime() + ms));
        return (await db.selectFrom("erased_sessions").select("external_id").execute()).length;
      };
      assert.equal(await left(30 * 86_400_000 - 1), 1);
      assert.equal(await left(30 * 86_400_000), 1);
      assert.equal(await left(30 * 86_400_000 + 1), 0);
    },
  );

  await s.step("1,500 sessions go in one call", async () => {
    const z = await db.insertInto("tracked_users").values({
      id: "z-many",
      project_id: project.id,
      organization_id: orgId,
      external_id: "zoe@example.test",
      traits: "{}",
    }).returning("id").executeTakeFirstOrThrow();
    await sql`INSERT INTO sessions (id, project_id, organization_id, external_id, started_at,
        ended_at, tracked_user_id)
      SELECT 'z-' || i, ${project.id}, ${orgId}, gen_random_uuid()::text,
        now() - interval '1 hour', now(), ${z.id}
      FROM generate_series(1, 1500) AS i`.execute(db);
    await sql`INSERT INTO event_batches (project_id, session_external_id, session_created_at,
        first_ts, last_ts, event_count, digest, data)
      SELECT project_id, external_id, created_at, 1, 2, 1, decode(md5(id), 'hex'),
        convert_to(${SECRET}, 'UTF8')
      FROM sessions WHERE tracked_user_id = ${z.id}`.execute(db);
    await sql`INSERT INTO markers (session_id, session_created_at, ts, kind, data)
      SELECT id, created_at, 1, 'note', '{}'::jsonb FROM sessions
      WHERE tracked_user_id = ${z.id}`.execute(db);
    const res = await call(t.app, "POST", `/api/tracked-users/${z.id}/erase`, {
      cookie: admin.cookie,
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.sessions, 1500);
    assert.equal(body.batches, 1500);
    const left = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM sessions
      WHERE id LIKE 'z-%'`.execute(db);
    assert.equal(left.rows[0].n, 0);
    const tombstones = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM erased_sessions
      WHERE erased_at >= ${body.startedAt}::timestamptz`.execute(db);
    assert.equal(tombstones.rows[0].n, 1500);
  });
});
