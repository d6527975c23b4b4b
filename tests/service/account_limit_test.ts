// One account cannot crowd out the others: past MAX_REQUESTS_PER_ACCOUNT dashboard requests in
// flight, its next one is 429 + Retry-After at once, while another account's reads are answered;
// once its requests end, it is served again. Requests are held in flight by bodies the test has
// not finished sending (PATCH /api/user reads its body after the viewer is known).
import assert from "node:assert/strict";
import {
  accountLimitOf,
  createAccountLimit,
  MAX_REQUESTS_PER_ACCOUNT,
} from "@/http/account_limit.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { APP_ORIGIN, signedInUser } from "@/tests/helpers/auth.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

/** A JSON body sent in two parts: the second only when `finish()` is called. */
function heldJson(json: string) {
  const bytes = new TextEncoder().encode(json);
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => finish = resolve);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 0) {
        controller.enqueue(bytes.slice(0, 1));
        sent = 1;
        return;
      }
      await finished;
      controller.enqueue(bytes.slice(1));
      controller.close();
    },
  }, { highWaterMark: 0 });
  return { stream, finish };
}

Deno.test("account limit: the limit's requests are admitted, one more is 429; a place given back is free again", () => {
  const limit = createAccountLimit(3);
  const leaves = [limit.enter("a"), limit.enter("a"), limit.enter("a")];
  assert.throws(() => limit.enter("a"), (error: Error & { kind?: string; details?: unknown }) => {
    assert.equal(error.kind, "rate_limited");
    assert.deepEqual(error.details, { retryAfter: 1 });
    return true;
  });
  assert.doesNotThrow(() => limit.enter("b"));
  leaves[0]();
  leaves[0](); // twice is once
  assert.equal(limit.inFlight("a"), 2);
  assert.doesNotThrow(() => limit.enter("a"));
});

Deno.test("account limit: a flood from one account is refused past the limit; another account is served meanwhile", async () => {
  await using t = await createTestApp();
  const heavy = await signedInUser(t);
  const light = await signedInUser(t);
  const bodies = Array.from({ length: MAX_REQUESTS_PER_ACCOUNT }, () => heldJson('{"name":"H"}'));
  const held = bodies.map((body) =>
    t.app.request("/api/user", {
      method: "PATCH",
      headers: { cookie: heavy.cookie, origin: APP_ORIGIN, "content-type": "application/json" },
      body: body.stream,
    })
  );
  const limit = accountLimitOf(t.deps);
  // Each held request takes its place once its viewer is resolved: wait for all (bounded).
  for (let i = 0; i < 2000 && limit.inFlight(heavy.user.id) < MAX_REQUESTS_PER_ACCOUNT; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(limit.inFlight(heavy.user.id), MAX_REQUESTS_PER_ACCOUNT);

  const refused = await t.app.request("/api/sessions", { headers: { cookie: heavy.cookie } });
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get("retry-after"), "1");
  assert.equal((await refused.json()).kind, "rate_limited");

  const other = await t.app.request("/api/sessions", { headers: { cookie: light.cookie } });
  assert.equal(other.status, 200);
  await other.body?.cancel();

  for (const body of bodies) body.finish();
  assert.deepEqual((await Promise.all(held)).map((res) => res.status), bodies.map(() => 200));
  assert.equal(limit.inFlight(heavy.user.id), 0);
  const again = await t.app.request("/api/sessions", { headers: { cookie: heavy.cookie } });
  assert.equal(again.status, 200);
  await again.body?.cancel();
});

Deno.test("account limit: a page load counts too, and past the limit is a 429 page with Retry-After", async () => {
  await using t = await createPagesApp();
  const heavy = await signedInUser(t);
  const light = await signedInUser(t);
  const limit = accountLimitOf(t.deps);
  // Seven places held: the eighth request (a page) is served and holds its place while it runs.
  const held = Array.from(
    { length: MAX_REQUESTS_PER_ACCOUNT - 1 },
    () => limit.enter(heavy.user.id),
  );
  for (const path of ["/sessions", "/insights", "/users"]) {
    const res = await page(t, path, { cookie: heavy.cookie });
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
    assert.equal(limit.inFlight(heavy.user.id), MAX_REQUESTS_PER_ACCOUNT - 1, "given back");
  }
  held.push(limit.enter(heavy.user.id));
  for (const path of ["/sessions", "/insights", "/users", "/replays/x"]) {
    const refused = await page(t, path, { cookie: heavy.cookie });
    assert.equal(refused.status, 429, path);
    assert.equal(refused.headers.get("retry-after"), "1");
    assert.match(await refused.text(), /requests of this account are under way/);
  }
  const other = await page(t, "/sessions", { cookie: light.cookie });
  assert.equal(other.status, 200);
  await other.body?.cancel();
  for (const leave of held) leave();
  const again = await page(t, "/sessions", { cookie: heavy.cookie });
  assert.equal(again.status, 200);
  await again.body?.cancel();
  assert.deepEqual(t.errors, []);
});
