// The alert rollup is written by ingest's own statement (migration 0039's triggers on markers): a
// batch with rage clicks in two minutes rolls them up under the page its url names and the
// element, once per minute, and a retried batch adds nothing; the rule counts the session once.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { groupsOverThreshold } from "@/db/queries/alerts/evaluate.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { customEvent, METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";

const MIN = 60_000;

Deno.test("alert rollup: ingest writes it with the markers; a retry adds nothing", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const t0 = Math.floor(Date.now() / MIN) * MIN - 5 * MIN;
  const rage = (at: number) =>
    customEvent("service:rage_click", { selector: "button#buy", text: "Buy", clicks: 4 }, at);
  const batch = {
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(3, t0), rage(t0 + 10_000), rage(t0 + 20_000), rage(t0 + MIN)],
    metadata: METADATA,
  };
  assert.equal((await postIngest(t.app, batch, { key: project.key })).status, 204);
  assert.equal((await postIngest(t.app, batch, { key: project.key })).status, 204);
  const { rows } = await sql<{ dimension: string; minute: string; group_key: string }>`
    SELECT dimension, minute::text, group_key FROM alert_signal_minutes ORDER BY 1, 2`
    .execute(db);
  const first = String(t0 / MIN);
  const second = String(t0 / MIN + 1);
  assert.deepEqual(rows, [
    { dimension: "page", minute: first, group_key: "/products/42" },
    { dimension: "page", minute: second, group_key: "/products/42" },
    { dimension: "selector", minute: first, group_key: "button#buy" },
    { dimension: "selector", minute: second, group_key: "button#buy" },
  ]);
  const counted = await db.transaction().execute((tx) =>
    groupsOverThreshold(
      tx,
      {
        project_id: project.id,
        signal: "rage_click",
        group_by: "page",
        threshold: 1,
      },
      t0 / MIN,
      t0 / MIN + 10,
    )
  );
  assert.deepEqual(counted.map((g) => [g.group_key, g.count, g.sessions[0].offset]), [
    ["/products/42", 1, MIN],
  ]);
});
