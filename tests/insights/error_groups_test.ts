// Migration 0021: errors are grouped by fingerprint (the message with URLs, ids and numbers folded,
// plus the top frame), with first and last seen, sessions and users, and the sessions list's
// `error` filter takes a group's fingerprint; each group has its latest error's stack (0032).
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";

const T0 = Date.now() - 60_000;
const error = (message: string, trace: string[], timestamp: number) => ({
  type: 6,
  data: {
    plugin: "rrweb/console@1",
    payload: { level: "error", trace, payload: [JSON.stringify(message)] },
  },
  timestamp,
});
const PAY = ["pay (https://shop.test/app.js?v=3:10:5)", "https://shop.test/app.js:2:1"];
/** The same top frame (the same group) from another caller. */
const PAY_LATER = [PAY[0], "checkout (https://shop.test/app.js:7:3)"];

Deno.test("insights: error_fingerprint folds URLs, ids and numbers and keeps the top frame", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const fingerprint = async (data: unknown) =>
    (await sql<{ f: string }>`SELECT error_fingerprint(${JSON.stringify(data)}::text::jsonb) AS f`
      .execute(db)).rows[0].f;
  const cases: [unknown, string][] = [
    [{ message: "boom" }, "boom"],
    [{ message: "Order 8123 failed" }, "Order <n> failed"],
    [{ message: "user 3f2a9c1e-77aa-4b0c-9d1e-0a1b2c3d4e5f missing" }, "user <id> missing"],
    [{ message: "no cart ck9x2b7q1000" }, "no cart <id>"],
    [{ message: "GET https://api.test/v1/cart?id=9 404" }, "GET <url> <n>"],
    [{ message: "boom", stack: PAY.join("\n") }, "boom @ pay (https://shop.test/app.js:<n>:<n>)"],
    [{ stack: "" }, ""],
  ];
  for (const [data, expected] of cases) assert.equal(await fingerprint(data), expected);
});

Deno.test("insights: two errors differing only by an id are one group with the latest's stack, linked to its sessions", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const post = async (events: unknown[], userId?: string) => {
    const sessionId = crypto.randomUUID();
    const metadata = userId ? { ...METADATA, userIdentity: { userId, traits: {} } } : METADATA;
    const body = { sessionId, events: [...recordedEvents(2, T0), ...events], metadata };
    assert.equal((await postIngest(t.app, body, { key: w.alpha.key })).status, 204);
    return sessionId;
  };
  const a = await post([error("Order 8123 failed", PAY, T0 + 1000)], "ada");
  const b = await post([error("Order 9001 failed", PAY_LATER, T0 + 5000)], "bob");
  // the same message thrown elsewhere is another group; so is another message
  const c = await post([
    error("Order 7 failed", ["other (https://shop.test/x.js:1:1)"], T0 + 2000),
  ]);
  await post([error("Cart empty", PAY, T0 + 3000)]);

  const { body } = await w.get("/api/insights?range=7d");
  const group = body.errors[0];
  assert.deepEqual(group, {
    fingerprint: "Order <n> failed @ pay (https://shop.test/app.js:<n>:<n>)",
    message: "Order 9001 failed",
    stack: PAY_LATER.join("\n"),
    sessions: 2,
    users: 2,
    firstSeenAt: new Date(T0 + 1000).toISOString(),
    lastSeenAt: new Date(T0 + 5000).toISOString(),
  });
  assert.equal(body.errors.length, 3);
  const other = body.errors.find((e: { message: string }) => e.message === "Order 7 failed");
  assert.equal(other.stack, "other (https://shop.test/x.js:1:1)");

  const listed = await w.get(
    `/api/sessions?signals=error&error=${encodeURIComponent(group.fingerprint)}`,
  );
  assert.equal(listed.res.status, 200);
  const ids = listed.body.data.map((s: { externalId: string }) => s.externalId).sort();
  assert.deepEqual(ids, [a, b].sort());
  assert.ok(!ids.includes(c));
});
