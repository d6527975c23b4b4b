// Development's Playground: the key printed at start records into a project the first
// user to sign in sees, whichever way they sign in, and the cleanup leaves it alone while it waits
// for that user. Outside development none of it exists.
import assert from "node:assert/strict";
import { runCleanup, SETTLE_MS } from "@/core/service/cleanup.ts";
import { ensurePlayground } from "@/core/service/playground.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { insertOrganization } from "@/tests/helpers/factories.ts";
import { METADATA, recordedEvents } from "@/tests/helpers/ingest.ts";
import { oauthTestApp, signInWith } from "@/tests/helpers/oauth.ts";
import { githubIdentity } from "@/tests/helpers/oauth_github.ts";

const DEVELOPMENT = { NODE_ENV: "development" };

/** Signs `email` in by the code the log shows (no mail server), as the README says. */
async function signInByLoggedCode(t: TestApp, email: string): Promise<string> {
  const send = await call(t.app, "POST", "/api/auth/otp/send", { body: { email } });
  assert.equal(send.status, 204);
  const code = t.logs.findLast((l) => l.tag === "auth:otp:dev_code" && l.props.email === email)
    ?.props.code as string;
  const verify = await call(t.app, "POST", "/api/auth/otp/verify", { body: { email, code } });
  assert.equal(verify.status, 200, await verify.clone().text());
  return verify.headers.get("set-cookie")!.split(";")[0];
}

async function projectNames(t: TestApp, cookie: string): Promise<string[]> {
  const res = await call(t.app, "GET", "/api/projects", { cookie });
  assert.equal(res.status, 200);
  return (await res.json()).map((p: { name: string }) => p.name);
}

async function organizationsOf(t: TestApp, email: string) {
  return await t.db.kysely.selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .innerJoin("organizations as o", "o.id", "m.organization_id")
    .select(["o.id", "o.name", "m.role", "u.active_organization_id as active"])
    .where("u.email", "=", email).execute();
}

Deno.test("playground: the first user to sign in owns it and sees the batch its key recorded", async () => {
  await using t = await createTestApp(DEVELOPMENT);
  const playground = await ensurePlayground(t.deps);
  assert.ok(playground);
  assert.equal(playground.name, "Playground");
  // A batch before anyone has signed in, as the README's curl sends it right after start.
  const sessionId = crypto.randomUUID();
  const ingest = await call(t.app, "POST", "/api/ingest", {
    headers: { "x-service-public-key": playground.key },
    body: { sessionId, metadata: METADATA, events: recordedEvents(2) },
  });
  assert.equal(ingest.status, 204);

  const ada = await signInByLoggedCode(t, "ada@example.test");
  const [workspace, ...others] = await organizationsOf(t, "ada@example.test");
  assert.deepEqual(others, [], "the Playground's organization is the first user's only workspace");
  assert.equal(workspace.role, "OWNER");
  assert.equal(workspace.active, workspace.id);
  assert.equal(workspace.name, "ada's workspace");
  assert.deepEqual(await projectNames(t, ada), ["Playground"]);
  const sessions = await call(t.app, "GET", "/api/sessions", { cookie: ada });
  assert.deepEqual((await sessions.json()).data.map((s: { externalId: string }) => s.externalId), [
    sessionId,
  ]);
  assert.ok(t.logs.some((l) => l.tag === "dev:playground:claimed"));

  // A restart keeps the project and its key in the workspace it now belongs to.
  const again = await ensurePlayground(t.deps);
  assert.equal(again?.key, playground.key);
  assert.deepEqual(await projectNames(t, ada), ["Playground"]);

  // The next newcomer gets a workspace of their own, without the Playground.
  const grace = await signInByLoggedCode(t, "grace@example.test");
  const graces = await organizationsOf(t, "grace@example.test");
  assert.deepEqual(graces.map((o) => [o.name, o.role]), [["grace's workspace", "OWNER"]]);
  assert.deepEqual(await projectNames(t, grace), []);
});

Deno.test("playground: a first sign-in through OAuth takes it too", async () => {
  await using t = await oauthTestApp(DEVELOPMENT);
  await ensurePlayground(t.deps);
  t.github.identity = githubIdentity({
    name: "Ada",
    emails: [{ email: "ada@example.test", primary: true, verified: true }],
  });
  await signInWith(t.browser(), "github");
  const organizations = await organizationsOf(t, "ada@example.test");
  assert.deepEqual(organizations.map((o) => [o.id, o.role]), [["dev-organization", "OWNER"]]);
});

Deno.test("playground: the cleanup spares it while it waits for its first user, in development only", async () => {
  const now = Date.now() + 2 * SETTLE_MS; // the Playground and the other organization have settled
  {
    await using t = await createTestApp(DEVELOPMENT);
    await ensurePlayground(t.deps);
    const stray = await insertOrganization(t.db.kysely, "No members");
    const result = await runCleanup(t.deps, new Date(now));
    assert.equal(result.organizations, 1);
    const left = await t.db.kysely.selectFrom("organizations").select("id").execute();
    assert.deepEqual(left.map((o) => o.id), ["dev-organization"]);
    assert.notEqual(left[0].id, stray.id);
    // …and its key still records.
    const project = await t.db.kysely.selectFrom("projects").select("key")
      .executeTakeFirstOrThrow();
    const ingest = await call(t.app, "POST", "/api/ingest", {
      headers: { "x-service-public-key": project.key },
      body: { sessionId: crypto.randomUUID(), metadata: METADATA, events: recordedEvents(1) },
    });
    assert.equal(ingest.status, 204);
  }
  {
    // Outside development there is no Playground, and a member-less organization of that id is
    // like any other: new users get their own workspace and the cleanup deletes it.
    await using t = await createTestApp({ NODE_ENV: "test" });
    assert.equal(await ensurePlayground(t.deps), null);
    assert.equal((await t.db.kysely.selectFrom("organizations").selectAll().execute()).length, 0);
    await t.db.kysely.insertInto("organizations").values({ id: "dev-organization", name: "Dev" })
      .execute();
    await signInByLoggedCode(t, "ada@example.test");
    const [workspace] = await organizationsOf(t, "ada@example.test");
    assert.notEqual(workspace.id, "dev-organization");
    const result = await runCleanup(t.deps, new Date(now));
    assert.equal(result.organizations, 1);
    const gone = await t.db.kysely.selectFrom("organizations").select("id")
      .where("id", "=", "dev-organization").executeTakeFirst();
    assert.equal(gone, undefined);
  }
});
