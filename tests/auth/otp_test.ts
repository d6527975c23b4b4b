// Email one-time codes (docs/decisions.md "Sign-in and accounts"), mailed to a real SMTP
// server on loopback and read back from the received mail.
import assert from "node:assert/strict";
import { resolveViewer } from "@/http/session.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { insertUser } from "@/tests/helpers/factories.ts";
import { codeIn, startTestSmtp } from "@/tests/helpers/smtp.ts";

async function setup() {
  const smtp = await startTestSmtp();
  const t = await createTestApp(smtp.env);
  const disposeApp = t[Symbol.asyncDispose];
  return Object.assign(t, {
    smtp,
    send: (email: string) => call(t.app, "POST", "/api/auth/otp/send", { body: { email } }),
    verify: (body: Record<string, unknown>) =>
      call(t.app, "POST", "/api/auth/otp/verify", { body }),
    [Symbol.asyncDispose]: async () => {
      await disposeApp();
      await smtp[Symbol.asyncDispose]();
    },
  });
}

const backdateLastSend = (t: Awaited<ReturnType<typeof setup>>, seconds: number) =>
  t.db.kysely.updateTable("otp_send_counters")
    .set({ last_sent_at: new Date(Date.now() - seconds * 1000) }).execute();

Deno.test("otp: a mailed code signs a new user in with their own workspace as OWNER, made active", async () => {
  await using t = await setup();
  const send = await t.send("  Ada@Example.TEST ");
  assert.equal(send.status, 204);
  const mail = await t.smtp.next();
  assert.deepEqual(mail.to, ["ada@example.test"]);
  assert.equal(mail.from, "bot@playhead.test");

  const res = await t.verify({ email: "ada@example.test", code: codeIn(mail), name: "Ada" });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.deepEqual(await res.json(), { redirectTo: "/" });
  const setCookie = res.headers.get("set-cookie")!;
  assert.match(
    setCookie,
    /^playhead_session=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax/,
  );

  const db = t.db.kysely;
  const user = await db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
  assert.equal(user.email, "ada@example.test");
  assert.equal(user.name, "Ada");
  assert.ok(user.email_verified_at);
  const org = await db.selectFrom("organizations").selectAll().executeTakeFirstOrThrow();
  assert.equal(org.name, "Ada's workspace");
  assert.equal(user.active_organization_id, org.id);
  const viewer = await resolveViewer(t.deps, setCookie.split(";")[0]);
  assert.deepEqual(viewer, {
    userId: user.id,
    email: "ada@example.test",
    activeOrganizationId: org.id,
    role: "OWNER",
    clientAddress: null, // resolved outside a request
  });
});

Deno.test("otp: an existing user signs in without getting a second workspace", async () => {
  await using t = await setup();
  const existing = await insertUser(t.db.kysely, "grace@example.test");
  await t.send("grace@example.test");
  const res = await t.verify({ email: "grace@example.test", code: codeIn(await t.smtp.next()) });
  assert.equal(res.status, 200);
  const viewer = await resolveViewer(t.deps, res.headers.get("set-cookie")!.split(";")[0]);
  assert.equal(viewer?.userId, existing.id);
  assert.equal((await t.db.kysely.selectFrom("organizations").selectAll().execute()).length, 0);
});

Deno.test("otp: a code is stored hashed and works only once", async () => {
  await using t = await setup();
  await t.send("once@example.test");
  const code = codeIn(await t.smtp.next());
  const row = await t.db.kysely.selectFrom("otp_codes").selectAll().executeTakeFirstOrThrow();
  assert.ok(!row.code_hash.includes(code));
  assert.match(row.code_hash, /^[0-9a-f]{64}$/);
  assert.equal((await t.verify({ email: "once@example.test", code })).status, 200);
  const again = await t.verify({ email: "once@example.test", code });
  assert.equal(again.status, 401);
  assert.equal((await again.json()).kind, "auth");
});

Deno.test("otp: five wrong attempts burn the code, so the right one fails afterwards", async () => {
  await using t = await setup();
  await t.send("guess@example.test");
  const code = codeIn(await t.smtp.next());
  const wrong = code === "000000" ? "111111" : "000000";
  const attempts = await Promise.all(
    Array.from({ length: 5 }, () => t.verify({ email: "guess@example.test", code: wrong })),
  );
  assert.deepEqual(attempts.map((r) => r.status), [401, 401, 401, 401, 401]);
  const res = await t.verify({ email: "guess@example.test", code });
  assert.equal(res.status, 401);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal((await res.json()).kind, "auth");
});

Deno.test("otp: an expired code is refused", async () => {
  await using t = await setup();
  await t.send("late@example.test");
  const code = codeIn(await t.smtp.next());
  await t.db.kysely.updateTable("otp_codes").set({ expires_at: new Date(Date.now() - 1000) })
    .execute();
  assert.equal((await t.verify({ email: "late@example.test", code })).status, 401);
});

Deno.test("otp: a new code replaces the previous one", async () => {
  await using t = await setup();
  await t.send("twice@example.test");
  const first = codeIn(await t.smtp.next());
  await backdateLastSend(t, 61);
  assert.equal((await t.send("twice@example.test")).status, 204);
  const second = codeIn(await t.smtp.next());
  if (first !== second) {
    assert.equal((await t.verify({ email: "twice@example.test", code: first })).status, 401);
  }
  assert.equal((await t.verify({ email: "twice@example.test", code: second })).status, 200);
});

Deno.test("otp: a second send within 60 s answers 429 with retryAfter and is logged", async () => {
  await using t = await setup();
  assert.equal((await t.send("wait@example.test")).status, 204);
  const res = await t.send("wait@example.test");
  assert.equal(res.status, 429);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const body = await res.json();
  assert.equal(body.kind, "rate_limited");
  assert.ok(body.retryAfter >= 55 && body.retryAfter <= 60, String(body.retryAfter));
  assert.equal(res.headers.get("retry-after"), String(body.retryAfter));
  const logged = t.logs.find((l) => l.tag === "auth:otp:cooldown_blocked");
  assert.equal(logged?.level, "warning");
  assert.equal(logged?.props.reason, "cooldown");
  assert.equal(t.smtp.messages.length, 1);
});

Deno.test("otp: the sixth send of a UTC day answers 429 until midnight", async () => {
  await using t = await setup();
  for (let i = 0; i < 5; i++) {
    assert.equal((await t.send("daily@example.test")).status, 204, `send ${i + 1}`);
    await backdateLastSend(t, 61);
  }
  const res = await t.send("daily@example.test");
  assert.equal(res.status, 429);
  const body = await res.json();
  const untilMidnight = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
  assert.ok(Math.abs(body.retryAfter - untilMidnight) <= 5, `${body.retryAfter}`);
  assert.equal(
    t.logs.find((l) => l.tag === "auth:otp:cooldown_blocked")?.props.reason,
    "daily_cap",
  );
});

Deno.test("otp: concurrent sends for one email are counted atomically in the database", async () => {
  await using t = await setup();
  const results = await Promise.all(
    Array.from({ length: 5 }, () => t.send("race@example.test")),
  );
  assert.deepEqual(results.map((r) => r.status).sort(), [204, 429, 429, 429, 429]);
  const counter = await t.db.kysely.selectFrom("otp_send_counters").selectAll()
    .executeTakeFirstOrThrow();
  assert.equal(counter.count, 1);
});

Deno.test("otp: an SMTP failure answers 503", async () => {
  await using smtp = await startTestSmtp();
  await using t = await createTestApp({ ...smtp.env, MAIL_APP_PASSWORD: "wrong" });
  const res = await call(t.app, "POST", "/api/auth/otp/send", {
    body: { email: "x@example.test" },
  });
  assert.equal(res.status, 503);
  assert.equal((await res.json()).kind, "unavailable");
});

Deno.test("otp: without mail outside production the code is written to the log", async () => {
  await using t = await createTestApp();
  const res = await call(t.app, "POST", "/api/auth/otp/send", {
    body: { email: "dev@example.test" },
  });
  assert.equal(res.status, 204);
  const code = t.logs.find((l) => l.tag === "auth:otp:dev_code")?.props.code as string;
  assert.match(code, /^\d{6}$/);
  const verify = await call(t.app, "POST", "/api/auth/otp/verify", {
    body: { email: "dev@example.test", code },
  });
  assert.equal(verify.status, 200);
  const org = await t.db.kysely.selectFrom("organizations").select("name").executeTakeFirst();
  assert.equal(org?.name, "dev's workspace");
});

Deno.test("otp: a malformed email or code answers 400 with the issues", async () => {
  await using t = await createTestApp();
  const send = await call(t.app, "POST", "/api/auth/otp/send", { body: { email: "nope" } });
  assert.equal(send.status, 400);
  assert.equal((await send.json()).kind, "validation");
  const verify = await call(t.app, "POST", "/api/auth/otp/verify", {
    body: { email: "a@b.test", code: "12ab" },
  });
  assert.equal(verify.status, 400);
  const body = await verify.json();
  assert.equal(body.kind, "validation");
  assert.equal(body.issues[0].path, "code");
});

Deno.test("methods: GET /api/auth/methods lists the configured OAuth providers, email and passkey", async () => {
  await using t = await createTestApp({
    AUTH_OAUTH_A_ID: "gh",
    AUTH_OAUTH_A_SECRET: "s",
    MAIL_USER: "bot@x.test",
    MAIL_APP_PASSWORD: "pw",
  });
  const res = await t.app.request("/api/auth/methods");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.deepEqual(await res.json(), {
    oauth: [{ id: "github", name: "GitHub" }],
    email: true,
    passkey: true,
  });
});
