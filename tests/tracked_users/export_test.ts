// A tracked user's data as one JSON file: traits, each session's metadata, pages,
// markers and comments, absolute links to their replays under APP_URL, streamed as an attachment
// past a page of sessions (EXPORT_PAGE: 200), ADMIN+ and audited; nothing of another user in it.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { customEvent, METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

Deno.test("export: one JSON file of the user's traits, sessions, pages, markers, comments and replay links", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const orgId = project.organization_id;
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: orgId });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: orgId });
  const post = async (userId: string, path: string) => {
    const sessionId = crypto.randomUUID();
    const events = [
      ...recordedEvents(3, T0),
      customEvent("service:url", { url: `https://shop.test${path}`, pathname: path }, T0 + 10),
      customEvent("service:checkout", { step: 2 }, T0 + 2_000),
    ];
    const metadata = { ...METADATA, userIdentity: { userId, traits: { plan: "pro" } } };
    const res = await postIngest(t.app, { sessionId, events, metadata }, { key: project.key });
    assert.equal(res.status, 204);
    return (await db.selectFrom("sessions").select("id").where("external_id", "=", sessionId)
      .executeTakeFirstOrThrow()).id;
  };
  const first = await post("ada@example.test", "/cart");
  await post("ada@example.test", "/pay");
  await post("bob@example.test", "/bob-only");
  const comment = await call(t.app, "POST", `/api/sessions/${first}/comments`, {
    cookie: admin.cookie,
    body: { offsetMs: 1_000, text: "stuck on the cart" },
  });
  assert.equal(comment.status, 201);
  const ada = (await db.selectFrom("tracked_users").select("id")
    .where("external_id", "=", "ada@example.test").executeTakeFirstOrThrow()).id;

  const denied = await call(t.app, "GET", `/api/tracked-users/${ada}/export`, {
    cookie: viewer.cookie,
  });
  assert.equal(denied.status, 403);
  const missing = await call(t.app, "GET", "/api/tracked-users/nope/export", {
    cookie: admin.cookie,
  });
  assert.equal(missing.status, 404);

  const res = await call(t.app, "GET", `/api/tracked-users/${ada}/export`, {
    cookie: admin.cookie,
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-disposition") ?? "", /^attachment; filename=".+\.json"$/);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const text = await res.text();
  assert.ok(!text.includes("bob"), "nothing of another user");
  const file = JSON.parse(text);
  assert.equal(file.trackedUser.externalId, "ada@example.test");
  assert.deepEqual(file.trackedUser.traits, { plan: "pro" });
  assert.equal(file.sessions.length, 2);
  const one = file.sessions.find((s: { id: string }) => s.id === first);
  assert.equal(one.replayUrl, `${t.deps.config.appUrl}/replays/${first}`);
  assert.match(one.replayUrl, /^https?:\/\/[^/]+\/replays\//);
  assert.equal(one.url, METADATA.url);
  assert.equal(one.userAgent, METADATA.userAgent);
  assert.deepEqual(one.pages.map((p: { pathname: string }) => p.pathname), [
    "/products/42", // the metadata's opening page
    "/cart",
  ]);
  assert.deepEqual(one.markers.map((m: { kind: string; data: unknown }) => [m.kind, m.data]), [
    ["checkout", { step: 2 }],
  ]);
  assert.deepEqual(
    one.comments.map((c: { offsetMs: number; text: string }) => [c.offsetMs, c.text]),
    [
      [1_000, "stuck on the cart"],
    ],
  );
  const audit = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM audit_log
    WHERE action = 'tracked_user.export' AND target_id = ${ada}`.execute(db);
  assert.equal(audit.rows[0].n, 1);

  // Past one page of 200 sessions: 199, 200 and 201 sessions come whole, each once.
  for (const [n, extra] of [[199, 197], [200, 1], [201, 1]]) {
    await sql`INSERT INTO sessions (id, project_id, organization_id, external_id, started_at,
        tracked_user_id)
      SELECT 'p-' || ${n}::text || '-' || i, ${project.id}, ${orgId}, gen_random_uuid()::text,
        now(), ${ada}
      FROM generate_series(1, ${extra}::integer) AS i`.execute(db);
    const page = await call(t.app, "GET", `/api/tracked-users/${ada}/export`, {
      cookie: admin.cookie,
    });
    const ids = (await page.json()).sessions.map((s: { id: string }) => s.id);
    assert.equal(ids.length, n);
    assert.equal(new Set(ids).size, n);
  }
});
