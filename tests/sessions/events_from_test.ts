// GET /api/sessions/{id}/events?from=<ms> starts at the last batch holding a full snapshot taken at
// or before that moment (ingest stores when each batch's snapshot was taken, migration 0015), and
// ?before=<ms> returns exactly the batches it leaves out; without either the answer is unchanged.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { postIngest } from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);
const meta = (t: number) => ({
  type: 4,
  data: { href: "https://a.test/", width: 800, height: 600 },
  timestamp: t,
});
const snapshot = (t: number) => ({
  type: 2,
  data: { node: { type: 0, childNodes: [] }, initialOffset: { left: 0, top: 0 } },
  timestamp: t,
});
const move = (t: number) => ({
  type: 3,
  data: { source: 2, type: 1, id: 1, x: 1, y: 1 },
  timestamp: t,
});

/** Four batches: page 1 (Meta, snapshot), more of it, page 2 (Meta, snapshot 34 ms later), more. */
const BATCHES = [
  [meta(T0), snapshot(T0 + 10), move(T0 + 1_000)],
  [move(T0 + 5_000), snapshot(T0 + 6_000)], // a snapshot without its Meta does not count
  [move(T0 + 8_000), meta(T0 + 9_000), snapshot(T0 + 9_034), move(T0 + 9_500)],
  [move(T0 + 20_000)],
];

async function world() {
  const t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const externalId = crypto.randomUUID();
  for (const events of BATCHES) {
    const res = await postIngest(t.app, { sessionId: externalId, events }, { key: w.alpha.key });
    assert.equal(res.status, 204);
  }
  const session = await w.db.selectFrom("sessions").select("id")
    .where("external_id", "=", externalId).executeTakeFirstOrThrow();
  const firsts = async (query: string) => {
    const { res, body } = await w.get(`/api/sessions/${session.id}/events${query}`);
    assert.equal(res.status, 200, query);
    assert.equal(body.nextCursor, null);
    return body.batches.map((b: { firstTimestamp: number }) => b.firstTimestamp - T0);
  };
  return { t, w, session, externalId, firsts };
}

Deno.test("session events: ingest stores when each batch's Meta-led full snapshot was taken", async () => {
  const { t, w, externalId } = await world();
  await using _ = t;
  const rows = await w.db.selectFrom("event_batches").select(["first_ts", "snapshot_ts"])
    .where("session_external_id", "=", externalId).orderBy("first_ts").execute();
  assert.deepEqual(
    rows.map((r) => r.snapshot_ts === null ? null : r.snapshot_ts - T0),
    [10, null, 9_034, null],
  );
});

Deno.test("session events from a moment: from its last snapshot on; before: the rest", async () => {
  const { t, firsts } = await world();
  await using _ = t;
  const all = [0, 5_000, 8_000, 20_000];
  assert.deepEqual(await firsts(""), all);
  // Before the first snapshot there is none to start at: everything, and nothing before.
  assert.deepEqual(await firsts("?from=0"), all);
  assert.deepEqual(await firsts("?before=0"), []);
  assert.deepEqual(await firsts("?from=10"), all);
  assert.deepEqual(await firsts("?from=9033"), all);
  assert.deepEqual(await firsts("?before=9033"), []);
  // At the second page's snapshot and after: its batch on.
  assert.deepEqual(await firsts("?from=9034"), [8_000, 20_000]);
  assert.deepEqual(await firsts("?before=9034"), [0, 5_000]);
  assert.deepEqual(await firsts("?from=60000"), [8_000, 20_000]);
  assert.deepEqual(await firsts("?before=60000"), [0, 5_000]);
  assert.deepEqual(await firsts("?from=9034&before=60000"), []);
});

Deno.test("session events from a moment: an offset that is not a whole number of ms is 400", async () => {
  const { t, w, session } = await world();
  await using _ = t;
  for (const query of ["from=abc", "from=-1", "from=1.5", "from=", "before=x", "before=-5"]) {
    const { res, body } = await w.get(`/api/sessions/${session.id}/events?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(body.kind, "validation");
  }
});
