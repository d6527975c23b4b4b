// Unauthenticated calls that cost a mail or a row are throttled per client
// address (and OTP mail globally), with 429 `rate_limited` and `retryAfter`; the daily cleanup
// sweeps expired passkey challenges and OAuth states; names in invite mail carry no line breaks.
import assert from "node:assert/strict";
import { runCleanup } from "@/core/service/cleanup.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { APP_ORIGIN, signedInUser } from "@/tests/helpers/auth.ts";
import { mailText } from "@/tests/helpers/invite_mail.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";

/** A same-origin JSON POST from the client at `address` (the peer Deno.serve would report). */
function postFrom(t: TestApp, address: string, path: string, body: unknown, cookie?: string) {
  const headers: Record<string, string> = {
    Origin: APP_ORIGIN,
    "Content-Type": "application/json",
  };
  if (cookie) headers.Cookie = cookie;
  return t.app.request(path, { method: "POST", headers, body: JSON.stringify(body) }, {
    remoteAddr: { hostname: address, port: 40000, transport: "tcp" },
  });
}

/** Counters use fixed windows: start a test well inside one, so it cannot straddle two. */
async function awayFromWindowEnd(windowSeconds: number, marginSeconds = 20) {
  const left = windowSeconds - (Date.now() / 1000) % windowSeconds;
  if (left < marginSeconds) await new Promise((r) => setTimeout(r, (left + 1) * 1000));
}

async function assertThrottled(res: Response) {
  assert.equal(res.status, 429);
  const body = await res.json();
  assert.equal(body.kind, "rate_limited");
  assert.ok(Number.isInteger(body.retryAfter) && body.retryAfter > 0, JSON.stringify(body));
  assert.equal(res.headers.get("retry-after"), String(body.retryAfter));
}

Deno.test("otp: sends are limited per client address and in total per hour, each address being new", async () => {
  await using smtp = await startTestSmtp();
  await using t = await createTestApp({
    ...smtp.env,
    OTP_SENDS_PER_ADDRESS_HOURLY: "3",
    OTP_SENDS_HOURLY: "5",
  });
  await awayFromWindowEnd(3600);
  const send = (address: string, n: number) =>
    postFrom(t, address, "/api/auth/otp/send", { email: `user${n}@example.test` });
  for (let n = 0; n < 3; n++) assert.equal((await send("198.51.100.1", n)).status, 204);
  await assertThrottled(await send("198.51.100.1", 3));
  // Another client still gets through, until the global hourly budget is spent.
  assert.equal((await send("198.51.100.2", 4)).status, 204);
  assert.equal((await send("198.51.100.2", 5)).status, 204);
  await assertThrottled(await send("198.51.100.3", 6));
  while (smtp.messages.length < 5) await smtp.next();
  assert.equal(smtp.messages.length, 5);
  assert.ok(t.logs.some((l) => l.tag === "auth:otp:throttled"));
});

Deno.test("otp: new addresses sprayed from many clients cannot use up existing accounts' budget", async () => {
  await using smtp = await startTestSmtp();
  await using t = await createTestApp({
    ...smtp.env,
    OTP_SENDS_PER_ADDRESS_HOURLY: "2",
    OTP_SENDS_HOURLY: "4",
  });
  await awayFromWindowEnd(3600);
  const member = await signedInUser(t, { email: "member@example.test" });
  // Three clients spend the budget of new addresses (4) and are refused past it.
  let n = 0;
  for (const address of ["198.51.100.11", "198.51.100.12", "198.51.100.13"]) {
    for (let i = 0; i < 2; i++) {
      const res = await postFrom(t, address, "/api/auth/otp/send", {
        email: `stranger${n++}@example.test`,
      });
      if (n <= 4) assert.equal(res.status, 204);
      else await assertThrottled(res);
    }
  }
  // An existing account still gets its code, from a fourth client.
  const res = await postFrom(t, "198.51.100.14", "/api/auth/otp/send", {
    email: member.user.email,
  });
  assert.equal(res.status, 204, await res.text());
  while (smtp.messages.length < 5) await smtp.next();
  assert.deepEqual(smtp.messages.at(-1)?.to, ["member@example.test"]);
});

Deno.test("otp: IPv6 clients are counted by their /64", async () => {
  await using smtp = await startTestSmtp();
  await using t = await createTestApp({ ...smtp.env, OTP_SENDS_PER_ADDRESS_HOURLY: "2" });
  await awayFromWindowEnd(3600);
  const send = (address: string, n: number) =>
    postFrom(t, address, "/api/auth/otp/send", { email: `v6user${n}@example.test` });
  assert.equal((await send("2001:db8:7:1::1", 0)).status, 204);
  assert.equal((await send("2001:db8:7:1::2", 1)).status, 204);
  // A third address of the same /64 is the same client.
  await assertThrottled(await send("2001:db8:7:1:ffff::3", 2));
  // Another /64 is another client.
  assert.equal((await send("2001:db8:7:2::1", 3)).status, 204);
});

Deno.test("passkey sign-in options: throttled per client address; each refused call writes no row", async () => {
  await using t = await createTestApp({ PASSKEY_OPTIONS_PER_ADDRESS_MINUTE: "5" });
  await awayFromWindowEnd(60);
  const options = (address: string) =>
    postFrom(t, address, "/api/auth/passkeys/authenticate/options", {});
  for (let i = 0; i < 5; i++) assert.equal((await options("203.0.113.9")).status, 200);
  for (let i = 0; i < 20; i++) await assertThrottled(await options("203.0.113.9"));
  assert.equal((await options("203.0.113.10")).status, 200);
  const rows = await t.db.kysely.selectFrom("webauthn_challenges").select("id").execute();
  assert.equal(rows.length, 6);
});

Deno.test("cleanup: expired passkey challenges and OAuth states are swept, live ones stay", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const now = Date.now();
  for (const [id, offset] of [["old", -60_000], ["live", 60_000]] as const) {
    await db.insertInto("webauthn_challenges").values({
      id,
      purpose: "authenticate",
      user_id: null,
      challenge: id,
      expires_at: new Date(now + offset),
    }).execute();
    await db.insertInto("oauth_states").values({
      state_hash: id,
      provider: "github",
      code_verifier: "v",
      nonce: null,
      callback_url: "/",
      link_user_id: null,
      expires_at: new Date(now + offset),
    }).execute();
  }
  await runCleanup(t.deps, new Date(now));
  assert.deepEqual(
    (await db.selectFrom("webauthn_challenges").select("id").execute()).map((r) => r.id),
    ["live"],
  );
  assert.deepEqual(
    (await db.selectFrom("oauth_states").select("state_hash").execute()).map((r) => r.state_hash),
    ["live"],
  );
  const summary = t.logs.find((l) => l.tag === "cron:cleanup:summary");
  assert.equal(summary?.props.passkeyChallenges, 1);
  assert.equal(summary?.props.oauthStates, 1);
});

Deno.test("invite mail: CR, LF and control characters in names are removed", async () => {
  await using smtp = await startTestSmtp();
  await using t = await createTestApp({ APP_URL: APP_ORIGIN, ...smtp.env });
  const { cookie, organizationId, user } = await signedInUser(t);
  const db = t.db.kysely;
  await db.updateTable("organizations").set({ name: "Acme\r\nBcc: evil@example.test" })
    .where("id", "=", organizationId).execute();
  await db.updateTable("users").set({ name: "Eve\u0007\n\nClick http://evil.example" })
    .where("id", "=", user.id).execute();
  const res = await postFrom(t, "192.0.2.1", `/api/organizations/${organizationId}/invites`, {
    email: "friend@example.test",
    role: "VIEWER",
  }, cookie);
  assert.equal(res.status, 201, await res.text());
  const mail = await smtp.next();
  assert.deepEqual(mail.to, ["friend@example.test"]);
  const headers = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/));
  assert.doesNotMatch(headers, /^bcc:/im);
  assert.match(
    mailText(mail),
    /Eve Click http:\/\/evil\.example invited you to join Acme Bcc: evil@example\.test on Playhead/,
  );
});
