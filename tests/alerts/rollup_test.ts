// The alert count from the per-minute rollup (migration 0039, docs/decisions.md "Alerts") gives
// exactly the groups, counts and links the signal markers gave, for every signal and grouping
// and windows of 5 minutes to a day; a session with the signal in two minutes of the window
// counts once; an erased session's share leaves the count; the back-fill of markers stored before
// the rollup resumes where its last step committed and ends with the rows the trigger writes.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { groupsOverThreshold } from "@/db/queries/alerts/evaluate.ts";
import { backfillAlertSignals } from "@/db/queries/alerts/backfill.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { markerCountReference } from "./marker_count_reference.ts";
import { signalWorld } from "./rollup_world.ts";
import { sessionWithSignal } from "./alerts_world.ts";

const MIN = 60_000;
type Db = Awaited<ReturnType<typeof createTestApp>>["db"]["kysely"];

async function rollupCount(
  db: Db,
  rule: { project_id: string; signal: string; group_by: string | null; threshold: number },
  toMinute: number,
  windowMinutes: number,
) {
  return await db.transaction().execute((tx) =>
    groupsOverThreshold(tx, rule, toMinute - windowMinutes, toMinute)
  );
}

const GROUPINGS: Record<string, (string | null)[]> = {
  rage_click: [null, "page", "selector"],
  dead_click: [null, "page", "selector"],
  error: [null, "page", "error_group"],
  network_error: [null, "page", "endpoint"],
};

Deno.test("alert rollup: the same groups, counts and links as the markers, every window", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const { project, other, now } = await signalWorld(db);
  const toMinute = Math.floor(now / MIN);
  let compared = 0;
  let nonEmpty = 0;
  for (const [signal, groupings] of Object.entries(GROUPINGS)) {
    for (const group_by of groupings) {
      for (const windowMinutes of [5, 10, 37, 60, 180, 1440]) {
        for (const threshold of [1, 2, 3]) {
          for (const p of [project, other]) {
            const rule = { project_id: p.id, signal, group_by, threshold };
            const expected = await markerCountReference(
              db,
              rule,
              (toMinute - windowMinutes) * MIN,
              toMinute * MIN,
            );
            const got = await rollupCount(db, rule, toMinute, windowMinutes);
            assert.deepEqual(got, expected, JSON.stringify({ ...rule, windowMinutes }));
            compared++;
            if (expected.some((g) => g.sessions.length === 3 && g.count > 3)) nonEmpty++;
          }
        }
      }
    }
  }
  assert.equal(compared, 12 * 6 * 3 * 2);
  // a fair share of the windows had a group with more sessions than its links
  assert.ok(nonEmpty > compared / 6, `only ${nonEmpty} of ${compared} windows had a full group`);
});

Deno.test("alert rollup: a session with the signal in two minutes of the window counts once", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const t0 = Math.floor(Date.now() / MIN) * MIN;
  const twice = await sessionWithSignal(db, project, {
    page: "/checkout",
    kind: "rage_click",
    at: t0 - 5 * MIN,
    startedAt: t0 - 6 * MIN,
  });
  await db.insertInto("markers").values({
    session_id: twice.id,
    session_created_at: twice.created_at,
    ts: t0 - 3 * MIN + 500,
    kind: "rage_click",
    data: sql`${JSON.stringify({ selector: "#pay" })}::text::jsonb`,
  }).execute();
  await sessionWithSignal(db, project, {
    page: "/checkout",
    kind: "rage_click",
    at: t0 - 2 * MIN,
    startedAt: t0 - 4 * MIN,
  });
  const rule = { project_id: project.id, signal: "rage_click", threshold: 1 };
  const toMinute = t0 / MIN;
  for (const group_by of [null, "page", "selector"]) {
    const [group] = await rollupCount(db, { ...rule, group_by }, toMinute, 10);
    assert.equal(group.count, 2, `grouped by ${group_by}`);
    // the twice-signalled session's link is at its later rage click
    assert.deepEqual(group.sessions.map((s) => s.offset), [2 * MIN, 3 * MIN + 500]);
  }
  assert.deepEqual(
    await rollupCount(db, { ...rule, group_by: "page", threshold: 3 }, toMinute, 10),
    [],
  );
  // its two minutes are two rows; a window holding only the earlier one still counts it
  const [early] = await rollupCount(db, { ...rule, group_by: "page" }, toMinute - 4, 2);
  assert.equal(early.count, 1);
});

Deno.test("alert rollup: an erased session's share leaves the count", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const { organizationId, cookie } = await signedInUser(t, { role: "ADMIN" });
  const project = await insertProject(db, { organizationId });
  const t0 = Math.floor(Date.now() / MIN) * MIN;
  const sessions = [];
  for (let i = 0; i < 5; i++) {
    sessions.push(
      await sessionWithSignal(db, project, {
        page: "/checkout",
        kind: "rage_click",
        at: t0 - 2 * MIN + i * 1000,
        startedAt: t0 - 3 * MIN,
      }),
    );
  }
  const rule = { project_id: project.id, signal: "rage_click", group_by: "page", threshold: 5 };
  assert.equal((await rollupCount(db, rule, t0 / MIN, 10))[0]?.count, 5);
  const erased = await call(t.app, "DELETE", `/api/sessions/${sessions[2].id}`, { cookie });
  assert.equal(erased.status, 204);
  const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n
    FROM alert_signal_minutes WHERE session_id = ${sessions[2].id}`.execute(db);
  assert.equal(rows[0].n, 0);
  assert.deepEqual(await rollupCount(db, rule, t0 / MIN, 10), []);
  assert.equal((await rollupCount(db, { ...rule, threshold: 4 }, t0 / MIN, 10))[0].count, 4);
});

Deno.test("alert rollup: the back-fill resumes where its last step committed", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  await signalWorld(db);
  // the per-minute rows, each (group, session)'s last minute and the counts of those by minute
  // and hour
  const rowsNow = async () =>
    (await sql<{ r: string }>`
      SELECT concat_ws('|', project_id, kind, dimension, minute, group_key, session_id) AS r
      FROM alert_signal_minutes
      UNION ALL SELECT concat_ws('|', 'last', project_id, kind, dimension, group_key, session_id,
        last_minute) FROM alert_signal_last
      UNION ALL SELECT concat_ws('|', 'count', project_id, kind, dimension, minute, group_key,
        sessions) FROM alert_signal_last_counts WHERE sessions <> 0
      UNION ALL SELECT concat_ws('|', 'hour', project_id, kind, dimension, hour, group_key,
        sessions) FROM alert_signal_last_hours WHERE sessions <> 0
      ORDER BY 1`.execute(db)).rows.map((r) => r.r);
  const mark = async () =>
    (await sql<{ below: string }>`SELECT below_id::text AS below FROM alert_signal_backfill`
      .execute(db)).rows.map((r) => Number(r.below));
  const written = await rowsNow();
  assert.ok(written.length > 100);
  // As if the markers were stored before the rollup existed.
  await sql`DELETE FROM alert_signal_minutes`.execute(db);
  await sql`DELETE FROM alert_signal_last`.execute(db);
  await sql`DELETE FROM alert_signal_last_counts`.execute(db);
  await sql`DELETE FROM alert_signal_last_hours`.execute(db);
  const { rows: [{ top }] } = await sql<{ top: string }>`SELECT max(id)::text AS top FROM markers`
    .execute(db);
  await sql`INSERT INTO alert_signal_backfill (below_id) VALUES (${Number(top) + 1})`.execute(db);

  assert.equal(await backfillAlertSignals(db, { chunk: 40, steps: 1 }), false);
  const [afterOne] = await mark();
  assert.ok(afterOne <= Number(top) + 1 - 40, "the mark moved down by the chunk");
  const partial = await rowsNow();
  assert.ok(partial.length > 0 && partial.length < written.length);
  // A step that fails before committing leaves the mark and rows as they were.
  await assert.rejects(
    db.transaction().execute(async (tx) => {
      await backfillAlertSignals(tx, { chunk: 40, steps: 1 });
      throw new Error("cut short");
    }),
    /cut short/,
  );
  assert.deepEqual(await mark(), [afterOne]);
  assert.deepEqual(await rowsNow(), partial);
  // The next run goes on from the mark, not from the top.
  assert.equal(await backfillAlertSignals(db, { chunk: 40, steps: 1 }), false);
  const [afterTwo] = await mark();
  assert.ok(afterTwo < afterOne && afterTwo <= afterOne - 40, `${afterTwo} after ${afterOne}`);
  let runs = 0;
  while (!await backfillAlertSignals(db, { chunk: 40, steps: 3 })) {
    assert.ok(++runs < 1_000, "the back-fill did not end");
  }
  assert.deepEqual(await mark(), []);
  assert.deepEqual(await rowsNow(), written);
  assert.equal(await backfillAlertSignals(db, { chunk: 40, steps: 1 }), true);
});
