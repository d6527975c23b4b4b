// Public links from the dashboard's side: ADMIN+ makes and revokes them, every member
// lists them (never with a token), the database keeps only a hash, the organization's switch turns
// them off and back on, and expiry, revocation and deletion each make the link a 404.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { hashShareToken } from "@/core/shares/token.ts";
import { openShare } from "@/db/queries/shares/shares.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";
import { pathOf, sharesWorld } from "@/tests/helpers/shares_world.ts";

Deno.test("shares: ADMIN+ makes a link (201, token in the answer only), a VIEWER gets 403", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { res, body } = await w.share({ expiresInHours: 1, startMs: 40_000, endMs: 70_000 });
  assert.equal(res.status, 201);
  assert.match(res.headers.get("content-type") ?? "", /json/);
  assert.match(body.url, /^http:\/\/localhost:3000\/s\/[A-Za-z0-9_-]{43}$/);
  assert.equal(body.startMs, 40_000);
  assert.equal(body.endMs, 70_000);
  assert.equal(body.showConsole, false);
  assert.equal(body.status, "active");
  const expires = Date.parse(body.expiresAt) - Date.parse(body.createdAt);
  assert.ok(Math.abs(expires - 3_600_000) < 1_000, String(expires));

  const admin = await w.member("ADMIN");
  assert.equal((await w.share({}, admin.cookie)).res.status, 201);
  const viewer = await w.member("VIEWER");
  const refused = await w.share({}, viewer.cookie);
  assert.equal(refused.res.status, 403);
  assert.equal(refused.body.kind, "forbidden");

  // The list: every member reads it, no token anywhere in it.
  const list = await w.api("GET", `/api/sessions/${w.sessionId}/shares`, viewer.cookie);
  assert.equal(list.status, 200);
  assert.equal(list.headers.get("cache-control"), "no-store");
  const text = await list.text();
  const token = pathOf(body.url).slice(3);
  assert.ok(!text.includes(token), "the list holds no token");
  assert.equal(JSON.parse(text).shares.length, 2);
});

Deno.test("shares: the database holds the token's SHA-256, never the token", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { body } = await w.share();
  const token = pathOf(body.url).slice(3);
  const rows = await w.db.selectFrom("session_shares").selectAll().execute();
  assert.equal(rows.length, 1);
  assert.ok(!JSON.stringify(rows).includes(token), "no column holds the token");
  // An independent SHA-256 of the token's UTF-8 bytes, as 64 lowercase hex characters: an
  // encoding that gives the token back (base64 of it, say) is not this.
  const sha256 = createHash("sha256").update(token, "utf8").digest("hex");
  assert.match(sha256, /^[0-9a-f]{64}$/);
  assert.equal(rows[0].token_hash, sha256);
  // The token carries 256 random bits: 43 base64url characters.
  assert.equal(token.length, 43);
});

Deno.test("shares: expiresInHours is 1..720 (default 168), the window ordered and in the session", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  for (
    const [input, status] of [
      [{ expiresInHours: 0 }, 400],
      [{ expiresInHours: 1 }, 201],
      [{ expiresInHours: 720 }, 201],
      [{ expiresInHours: 721 }, 400],
      [{ expiresInHours: 1.5 }, 400],
      [{ startMs: 10_000, endMs: 10_000 }, 400],
      [{ startMs: 10_000, endMs: 10_001 }, 201],
      [{ startMs: 100_000 }, 201], // the session's last event is at 100 s
      [{ startMs: 100_001 }, 400],
      [{ showConsole: "yes" }, 400],
      [{ token: "mine" }, 400],
    ] as const
  ) {
    const { res } = await w.share(input);
    assert.equal(res.status, status, JSON.stringify(input));
  }
  const { body } = await w.share({});
  const days = (Date.parse(body.expiresAt) - Date.parse(body.createdAt)) / 86_400_000;
  assert.ok(Math.abs(days - 7) < 0.001, String(days));
});

Deno.test("shares: a link opens until exactly its expiry, and not from that millisecond on", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { body } = await w.share({ expiresInHours: 1 });
  const hash = await hashShareToken(pathOf(body.url).slice(3));
  const expiry = new Date(body.expiresAt);
  const at = (ms: number) => openShare(w.db, hash, new Date(expiry.getTime() + ms));
  assert.ok(await at(-1));
  assert.equal(await at(0), null);
  assert.equal(await at(1), null);
  // And the page: once the stored expiry has passed, 404.
  const path = pathOf(body.url);
  assert.equal((await page(t, path)).status, 200);
  await w.db.updateTable("session_shares").set({ expires_at: new Date(Date.now() - 1) }).execute();
  assert.equal((await page(t, path)).status, 404);
  const list = await (await w.api("GET", `/api/sessions/${w.sessionId}/shares`)).json();
  assert.equal(list.shares[0].status, "expired");
});

Deno.test("shares: revoking answers 404 from the next request; ADMIN+ only; unknown → 404", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { body } = await w.share();
  const path = pathOf(body.url);
  assert.equal((await page(t, path)).status, 200);
  const viewer = await w.member("VIEWER");
  assert.equal((await w.api("DELETE", `/api/shares/${body.id}`, viewer.cookie)).status, 403);
  assert.equal((await page(t, path)).status, 200);
  assert.equal((await w.api("DELETE", `/api/shares/${body.id}`)).status, 204);
  assert.equal((await page(t, path)).status, 404);
  assert.equal((await page(t, `${path}/events`)).status, 404);
  assert.equal((await w.api("DELETE", "/api/shares/nope")).status, 404);
  const list = await (await w.api("GET", `/api/sessions/${w.sessionId}/shares`)).json();
  assert.equal(list.shares[0].status, "revoked");
  assert.ok(list.shares[0].revokedAt);
});

Deno.test("shares: a deleted session's links answer 404, from the dashboard or from retention", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const first = pathOf((await w.share()).body.url);
  assert.equal((await w.api("DELETE", `/api/sessions/${w.sessionId}`)).status, 204);
  assert.equal((await page(t, first)).status, 404);
  assert.equal(await w.db.selectFrom("session_shares").select("id").executeTakeFirst(), undefined);

  // Retention deletes sessions by statement (core/service/cleanup.ts): the cascade is the same.
  const other = await w.api("POST", `/api/sessions/${w.otherSessionId}/shares`, undefined, {});
  const second = pathOf((await other.json()).url);
  assert.equal((await page(t, second)).status, 200);
  await w.db.deleteFrom("sessions").where("id", "=", w.otherSessionId).execute();
  assert.equal((await page(t, second)).status, 404);
});

Deno.test("shares: the organization's switch turns creation off and its links to 404, then back", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const path = pathOf((await w.share()).body.url);
  const org = `/api/organizations/${w.owner.organizationId}`;
  const viewer = await w.member("VIEWER");
  assert.equal((await w.api("PATCH", org, viewer.cookie, { allowPublicLinks: false })).status, 403);
  const off = await w.api("PATCH", org, w.owner.cookie, { allowPublicLinks: false });
  assert.equal(off.status, 200);
  assert.equal((await off.json()).allowPublicLinks, false);
  const refused = await w.share();
  assert.equal(refused.res.status, 403);
  assert.match(refused.body.message, /turned off/);
  assert.equal((await page(t, path)).status, 404);
  const admin = await w.member("ADMIN");
  const on = await w.api("PATCH", org, admin.cookie, { allowPublicLinks: true });
  assert.equal(on.status, 200);
  assert.equal((await page(t, path)).status, 200);
  assert.equal((await w.share()).res.status, 201);
  // A body with neither field is refused; a name still renames.
  assert.equal((await w.api("PATCH", org, w.owner.cookie, {})).status, 400);
  const renamed = await w.api("PATCH", org, w.owner.cookie, { name: "Renamed" });
  assert.equal((await renamed.json()).name, "Renamed");
});

Deno.test("shares: each view of the page is counted with its time", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { body } = await w.share();
  const before = Date.now();
  await page(t, pathOf(body.url));
  await page(t, pathOf(body.url));
  await page(t, `${pathOf(body.url)}/events`); // the events are not a view
  const list = await (await w.api("GET", `/api/sessions/${w.sessionId}/shares`)).json();
  assert.equal(list.shares[0].views, 2);
  assert.ok(Date.parse(list.shares[0].lastViewedAt) >= before - 1000);
});
