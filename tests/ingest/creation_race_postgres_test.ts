// Two requests of one session racing its creation: the first to insert the row carries no
// metadata (the previous page's parked events), the other the page's metadata. The opening url
// marker must not be lost because the second statement's snapshot predates the new row.
import assert from "node:assert/strict";
import { type IngestRow, writeIngest } from "@/db/queries/ingest/write.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { createTestDb } from "@/tests/helpers/db.ts";
import { recent } from "@/tests/helpers/times.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";

postgresUrl(); // two statements interleave only on PostgreSQL: PGlite has one connection

const T0 = recent(1_760_000_000_000);

function row(
  projectKey: string,
  externalId: string,
  firstTs: number,
  url: string | null,
): IngestRow {
  const data = new TextEncoder().encode(`batch at ${firstTs}`);
  return {
    projectKey,
    newSessionId: crypto.randomUUID(),
    externalId,
    metadata: url === null ? null : {
      url,
      referrer: "",
      userAgent: "test",
      screenWidth: 1280,
      screenHeight: 800,
      language: "en",
      pathname: new URL(url).pathname,
      browser: null,
      os: null,
      device: null,
    },
    identity: null,
    batch: {
      firstTs,
      lastTs: firstTs + 10,
      eventCount: 1,
      digest: new Uint8Array(32).fill(firstTs % 251),
      data,
      sliceMarkersJson: null,
      markersJson: "[]",
      signals: null,
    },
  };
}

Deno.test({
  name:
    "ingest: metadata that fills in a session created concurrently without it gets its url marker",
  fn: async () => {
    await using db = await createTestDb();
    const project = await insertProject(db.kysely);
    const externalId = crypto.randomUUID();
    let racing: Promise<unknown> = Promise.resolve();
    await db.kysely.transaction().execute(async (trx) => {
      // The parked batch opens the session and holds its row uncommitted...
      await writeIngest(trx, row(project.key, externalId, T0 + 500, null));
      // ...while the page's metadata arrives: its snapshot sees no session, its upsert waits.
      racing = writeIngest(db.kysely, row(project.key, externalId, T0, "https://app.test/one"));
      await new Promise((r) => setTimeout(r, 300));
    });
    const result = await racing as { created: boolean };
    assert.equal(result.created, false, "the metadata request found the session created");
    const session = await db.kysely.selectFrom("sessions").selectAll()
      .where("external_id", "=", externalId).executeTakeFirstOrThrow();
    assert.equal(session.url, "https://app.test/one");
    const markers = await db.kysely.selectFrom("markers").select(["ts", "kind", "data"])
      .where("session_id", "=", session.id).execute();
    assert.deepEqual(markers.map((m) => [m.kind, (m.data as { pathname: string }).pathname]), [
      ["url", "/one"],
    ]);
    assert.equal(Number(markers[0].ts), session.started_at.getTime());
    assert.deepEqual(session.url_pathnames, ["/one"], "the activity summary agrees");
  },
});

Deno.test({
  name: "ingest: a retry racing its session's creation is stored once, under the session's day",
  fn: async () => {
    await using db = await createTestDb();
    const project = await insertProject(db.kysely);
    const externalId = crypto.randomUUID();
    const first = row(project.key, externalId, T0, "https://app.test/one");
    let racing: Promise<unknown> = Promise.resolve();
    await db.kysely.transaction().execute(async (trx) => {
      await writeIngest(trx, first);
      // The SDK's retry of the same batch: its snapshot sees no session, so it would place the
      // batch under its own now(), beside the first, until the statement sees the session's.
      racing = writeIngest(db.kysely, { ...first, newSessionId: crypto.randomUUID() });
      await new Promise((r) => setTimeout(r, 300));
    });
    const retry = await racing as { created: boolean; stored: boolean };
    assert.deepEqual([retry.created, retry.stored], [false, false]);
    const session = await db.kysely.selectFrom("sessions").selectAll()
      .where("external_id", "=", externalId).executeTakeFirstOrThrow();
    const batches = await db.kysely.selectFrom("event_batches").select("session_created_at")
      .where("session_external_id", "=", externalId).execute();
    assert.deepEqual(batches, [{ session_created_at: session.created_at }]);
    assert.equal(session.event_count, 1);
    assert.deepEqual(session.batch_ts, [T0]);
  },
});
