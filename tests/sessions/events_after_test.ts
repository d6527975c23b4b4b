// GET /api/sessions/{id}/events?after=<batch id>: following an open session returns only the batches
// stored since that batch, in replay order; without `after` the answer is unchanged (detail_test).
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { insertBatch, insertSession } from "@/tests/helpers/sessions_factories.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

Deno.test("session events after a batch: only batches stored since, ordered as usual", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const session = await insertSession(w.db, w.alpha);
  const first = await insertBatch(w.db, session, [{ timestamp: T0 }]);
  const second = await insertBatch(w.db, session, [{ timestamp: T0 + 5_000 }]);
  // Stored later but recorded earlier (a retried batch): still new to a follower.
  const late = await insertBatch(w.db, session, [{ timestamp: T0 + 1_000 }]);
  const newest = await insertBatch(w.db, session, [{ timestamp: T0 + 9_000 }]);

  const { res, body } = await w.get(`/api/sessions/${session.id}/events?after=${second.id}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(body.nextCursor, null);
  assert.deepEqual(body.batches.map((b: { id: string }) => b.id), [
    String(late.id),
    String(newest.id),
  ]);
  assert.equal(body.batches[0].firstTimestamp, T0 + 1_000);

  const all = await w.get(`/api/sessions/${session.id}/events?after=${first.id - 1}`);
  assert.equal(all.body.batches.length, 4);
  const none = await w.get(`/api/sessions/${session.id}/events?after=${newest.id}`);
  assert.deepEqual(none.body, { batches: [], nextCursor: null });
});

Deno.test("session events after a batch: a cursor that is not a batch id is 400", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const session = await insertSession(w.db, w.alpha);
  for (const after of ["abc", "-1", "1.5", ""]) {
    const { res, body } = await w.get(`/api/sessions/${session.id}/events?after=${after}`);
    assert.equal(res.status, 400, after);
    assert.equal(body.kind, "validation");
  }
});
