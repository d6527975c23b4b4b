// No request class can starve the others. Health answers a flood from one cached probe; a request
// whose database budget expired runs no further query; a dashboard body that arrives slowly is the
// body timeout's 408 (#8). The pool's shares under a flood: request_classes_postgres_test.ts.
import assert from "node:assert/strict";
import { APP_ORIGIN, call, signedInUser } from "@/tests/helpers/auth.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { lockTable } from "@/tests/helpers/table_lock.ts";
import { waitUntil } from "@/tests/helpers/wait.ts";

Deno.test("health: 300 parallel calls are all answered 200 from one probe of the database", async () => {
  await using t = await createTestApp();
  const status = t.deps.status;
  let probes = 0;
  t.deps.status = () => {
    probes++;
    return status();
  };
  const answers = await Promise.all(
    Array.from({ length: 300 }, () => t.app.request("/api/health")),
  );
  assert.deepEqual([...new Set(answers.map((r) => r.status))], [200]);
  for (const answer of answers) await answer.body?.cancel();
  // One probe, or two if the flood outlived the first one's second of validity.
  assert.ok(probes <= 2, `${probes} probes for 300 calls`);
});

Deno.test("a request answered 503 past its database budget runs none of its remaining queries", async () => {
  await using t = await createTestApp({ DASHBOARD_DATABASE_BUDGET_MS: "100" });
  const { cookie } = await signedInUser(t);
  // The request reads its viewer (revoked_tokens), then creates an organization. The viewer read
  // is held, outside any request, until the budget has expired and the 503 is in.
  const lock = await lockTable(t.db.kysely, "revoked_tokens");
  const created = () =>
    t.db.kysely.selectFrom("organizations").select("id").where("name", "=", "Too late")
      .execute();
  try {
    const answer = await call(t.app, "POST", "/api/organizations", {
      cookie,
      body: { name: "Too late" },
    });
    assert.equal(answer.status, 503);
    assert.match(answer.headers.get("retry-after") ?? "", /^[1-9][0-9]*$/);
    assert.equal((await answer.json()).kind, "unavailable");
    assert.ok(t.logs.some((l) => l.tag === "db:budget:exceeded"));
  } finally {
    await lock.release();
  }
  // The handler goes on once its viewer read returns: it ends at its next query, refused, or (the
  // rule broken) with the organization written. Whichever comes first is awaited.
  const refused = () =>
    t.logs.some((l) => l.tag === "db:share:busy" && /already answered/.test(String(l.props.error)));
  await waitUntil(async () => refused() || (await created()).length > 0, "the handler's end");
  assert.deepEqual(await created(), []);
  assert.ok(refused(), "the remaining query was refused");
});

Deno.test("a dashboard JSON body that stalls is answered 408 by the body timeout, not 503", async () => {
  await using t = await createTestApp({
    DASHBOARD_DATABASE_BUDGET_MS: "300",
    HTTP_BODY_TIMEOUT_MS: "1500",
  });
  const { cookie } = await signedInUser(t);
  let stop!: () => void;
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"name":"Ac'));
      stop = () => {
        try {
          controller.close();
        } catch { /* cancelled by the server's 408 already */ }
      };
    },
  });
  const answer = await t.app.request("/api/organizations", {
    method: "POST",
    headers: { Origin: APP_ORIGIN, Cookie: cookie, "Content-Type": "application/json" },
    body: stalled,
  });
  stop();
  assert.equal(answer.status, 408);
  assert.equal((await answer.json()).kind, "request_timeout");
  // The same request with its body in time is answered as usual.
  const created = await call(t.app, "POST", "/api/organizations", {
    cookie,
    body: { name: "Acme" },
  });
  assert.equal(created.status, 201);
  await created.body?.cancel();
});
