// `deno task start` as a deployment runs it (least privilege): production configuration
// (with only AUTH_URL for the base URL), PostgreSQL migrated beforehand, the prebuilt assets, and only the task's narrow permissions (no
// disk writes or child processes, as on Deno Deploy). Needs DATABASE_URL: production has no
// embedded database.
import assert from "node:assert/strict";
import { openDb } from "@/db/client.ts";
import { tokenVersionOf } from "@/db/queries/account/users.ts";
import { signSession } from "@/core/auth/token.ts";
import { sessionCookieName } from "@/http/cookies.ts";
import { spawnDeno, waitHealthy } from "@/tests/helpers/entry_process.ts";
import { freshDatabase } from "@/tests/helpers/fresh_database.ts";
import { insertMembership, insertProject, insertUser } from "@/tests/helpers/factories.ts";
import { METADATA, recordedEvents } from "@/tests/helpers/ingest.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";

const ADMIN_URL = postgresUrl();
const AUTH_SECRET = "production-start-test-secret-0123456789abcdef";

Deno.test({
  name: "start: production on PostgreSQL serves a page, an ingest and a dashboard read",
  fn: async () => {
    const built = await Deno.stat(new URL("../../static/build/manifest.json", import.meta.url))
      .then(() => true, () => false);
    assert.ok(built, "production serves prebuilt assets: run `deno task build` first (CI does)");
    await using database = await freshDatabase(ADMIN_URL);
    const migrate = spawnDeno(["task", "-q", "db:migrate"], { DATABASE_URL: database.url });
    assert.equal((await migrate.status).code, 0, migrate.output());

    const db = await openDb({ kind: "postgres", url: database.url, max: 1 });
    const user = await insertUser(db.kysely);
    const project = await insertProject(db.kysely);
    await insertMembership(db.kysely, project.organization_id, user.id, "OWNER");
    await db.kysely.updateTable("users").set({ active_organization_id: project.organization_id })
      .where("id", "=", user.id).execute();
    const version = await tokenVersionOf(db.kysely, user.id);
    await db.close();

    await using start = spawnDeno(["task", "-q", "start"], (url) => ({
      DATABASE_URL: database.url,
      AUTH_SECRET,
      // Only AUTH_URL: the dashboard's base URL follows it (APP_URL → AUTH_URL → PLATFORM_URL).
      AUTH_URL: url,
      AUTH_OAUTH_A_ID: "start-test",
      AUTH_OAUTH_A_SECRET: "start-test",
      LOG_LEVEL: "warn",
    }));
    await waitHealthy(start);

    // A page, with the prebuilt island script it references, and the prebuilt SDK.
    const page = await fetch(`${start.url}/signin`);
    assert.equal(page.status, 200);
    const html = await page.text();
    const script = html.match(/src="(\/[^"]+\.js)"/)?.[1];
    assert.ok(script, "the sign-in page references a built script");
    const asset = await fetch(`${start.url}${script}`);
    assert.equal(asset.status, 200, script);
    await asset.body?.cancel();
    const sdk = await fetch(`${start.url}/sdk/v1/playhead.js`);
    assert.equal(sdk.status, 200);
    assert.match(await sdk.text(), /\S/);

    // An ingest with the project's public key.
    const sessionId = crypto.randomUUID();
    const ingest = await fetch(`${start.url}/api/ingest`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-service-public-key": project.key },
      body: JSON.stringify({ sessionId, events: recordedEvents(3), metadata: METADATA }),
    });
    assert.equal(ingest.status, 204, await ingest.clone().text());

    // A dashboard read with a session cookie signed by the deployment's AUTH_SECRET.
    const token = await signSession(AUTH_SECRET, { userId: user.id, version: version! });
    const list = await fetch(`${start.url}/api/sessions`, {
      headers: { Cookie: `${sessionCookieName(start.url)}=${token}` },
    });
    assert.equal(list.status, 200);
    const { data } = await list.json();
    assert.deepEqual(data.map((s: { externalId: string }) => s.externalId), [sessionId]);

    // A browser form from that origin passes the same-origin check (it was 403 with the base URL
    // left at localhost).
    const signOut = await fetch(`${start.url}/signout`, {
      method: "POST",
      redirect: "manual",
      headers: {
        Cookie: `${sessionCookieName(start.url)}=${token}`,
        Origin: start.url,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    assert.equal(signOut.status, 303, await signOut.text());
    assert.equal(signOut.headers.get("location"), "/signin");

    assert.doesNotMatch(start.output(), /NotCapable|PermissionDenied|Requires \w+ access/);
  },
});
