// Deleting a project, an organization or an account takes its recordings out of the object store:
// the objects they shared with others are rewritten without their bytes by the daily cleanup, and
// the replaced objects go at the next run, while the others' recordings replay as before.
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { NO_S3, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { waitUntil } from "@/tests/faults/service.ts";
import { offloadOnce } from "@/core/storage/offload.ts";
import { runCleanup } from "@/core/service/cleanup.ts";
import { T0, wholeObject } from "./world.ts";

/** Two owners, each with an organization and a project; `me` records into `mine`. */
async function twoOwners(t: TestApp) {
  const db = t.db.kysely;
  const me = await signedInUser(t, { role: "OWNER" });
  const mine = await insertProject(db, { organizationId: me.organizationId, name: "Mine" });
  const other = await signedInUser(t, { role: "OWNER" });
  const theirs = await insertProject(db, { organizationId: other.organizationId, name: "Theirs" });
  const store = t.deps.store!;
  await waitUntil(() => store.ensureBucket().then(() => true), 100);
  const record = async (key: string, start: number) => {
    const sessionId = crypto.randomUUID();
    for (let i = 0; i < 2; i++) {
      const events = recordedEvents(30, start + i * 30_000).map((e) => ({
        ...e,
        noise: crypto.randomUUID(), // compresses little: each batch's bytes are its own
      }));
      const res = await postIngest(t.app, { sessionId, events }, { key });
      assert.equal(res.status, 204);
    }
    return (await db.selectFrom("sessions").select("id").where("external_id", "=", sessionId)
      .executeTakeFirstOrThrow()).id;
  };
  const events = async (id: string, cookie: string) => {
    const res = await call(t.app, "GET", `/api/sessions/${id}/events`, { cookie });
    assert.equal(res.status, 200);
    return await res.json();
  };
  /** The bytes each of these sessions' batches has in the store. */
  const storedBytes = async (projectId: string) => {
    const rows = await db.selectFrom("event_batches")
      .select(["object_key", "object_offset", "object_length"])
      .where("project_id", "=", projectId).execute();
    assert.ok(rows.length > 0 && rows.every((r) => r.object_key !== null), "not offloaded");
    return await Promise.all(rows.map(async (r) =>
      Buffer.from(
        (await store.getRange(r.object_key!, Number(r.object_offset), r.object_length!))!,
      )
    ));
  };
  /** Every object in the bucket, whole. */
  const objects = async () => {
    const out: Buffer[] = [];
    for await (const key of store.list("")) {
      out.push(await wholeObject(store.config, key));
    }
    return out;
  };
  return { db, me, mine, other, theirs, store, record, events, storedBytes, objects };
}

/** Records into both, deletes with `remove`, runs two cleanups; only the others' bytes remain. */
async function deletionEmptiesTheStore(
  remove: (t: TestApp, w: Awaited<ReturnType<typeof twoOwners>>) => Promise<Response>,
) {
  await using s3 = await s3Endpoint();
  await using t = await createTestApp(storeEnv(s3.s3));
  const w = await twoOwners(t);
  await w.record(w.mine.key, T0);
  await w.record(w.mine.key, T0 + 200_000);
  const kept = await w.record(w.theirs.key, T0 + 100_000);
  const keptBefore = await w.events(kept, w.other.cookie);
  assert.ok((await offloadOnce({ db: t.db, store: w.store })).objects >= 1);
  const gone = await w.storedBytes(w.mine.id);
  const stays = await w.storedBytes(w.theirs.id);
  // One object holds both owners' batches (packed by day): it must be rewritten, not dropped.
  const shared = (await w.objects()).filter((o) =>
    gone.some((g) => o.includes(g)) && stays.some((s) => o.includes(s))
  );
  assert.equal(shared.length, 1);

  const res = await remove(t, w);
  assert.equal(res.status, 204);
  assert.equal(
    (await w.db.selectFrom("event_batches").select("id").where("project_id", "=", w.mine.id)
      .execute()).length,
    0,
  );

  await runCleanup(t.deps, new Date());
  // The replaced object stays one run (a replay may be reading it), then goes.
  await runCleanup(t.deps, new Date(), { orphanAgeMs: 0 });
  const left = await w.objects();
  for (const bytes of gone) {
    assert.ok(!left.some((o) => o.includes(bytes)), "a deleted recording's batch is still stored");
  }
  for (const bytes of stays) assert.ok(left.some((o) => o.includes(bytes)));
  assert.deepEqual(await w.events(kept, w.other.cookie), keptBefore);
}

Deno.test({
  name: "store deletion: a deleted project's recordings leave the object store",
  ignore: NO_S3 !== null,
  fn: () =>
    deletionEmptiesTheStore((t, w) =>
      call(t.app, "DELETE", `/api/projects/${w.mine.id}`, {
        cookie: w.me.cookie,
        body: { confirmation: "delete project" },
      })
    ),
});

Deno.test({
  name: "store deletion: a deleted organization's recordings leave the object store",
  ignore: NO_S3 !== null,
  fn: () =>
    deletionEmptiesTheStore((t, w) =>
      call(t.app, "DELETE", `/api/organizations/${w.me.organizationId}`, {
        cookie: w.me.cookie,
        body: { confirmation: "delete organization" },
      })
    ),
});

Deno.test({
  name: "store deletion: a deleted account's own organization's recordings leave the object store",
  ignore: NO_S3 !== null,
  fn: () =>
    deletionEmptiesTheStore((t, w) =>
      call(t.app, "DELETE", "/api/user", {
        cookie: w.me.cookie,
        body: { confirmation: "delete my account" },
      })
    ),
});
