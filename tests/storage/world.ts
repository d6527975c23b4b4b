// Shared set-up of the object-store tests: a signed-in ADMIN whose project records through the
// real ingest endpoint into an app with EVENTS_STORE on a fresh bucket.
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { AwsClient } from "aws4fetch";
import type { EventsStoreConfig } from "@/config/events_store.ts";
import type { TestApp } from "@/tests/helpers/app.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { offloadOnce } from "@/core/storage/offload.ts";
import { waitUntil } from "@/tests/faults/service.ts";
import type { ObjectStore } from "@/db/object_store.ts";
import { recent } from "@/tests/helpers/times.ts";
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { sessionKey } from "@/core/storage/keys.ts";
import { openBatch } from "@/core/storage/seal.ts";

export const T0 = recent(1_760_000_000_000);

export async function storeWorld(t: TestApp) {
  const w = await sessionsWorld(t, "ADMIN");
  // A fresh gateway's first bucket can take longer than a fault test's short store timeout.
  await waitUntil(() => t.deps.store!.ensureBucket().then(() => true), 100);
  /** Posts `batches` batches of `events` events (each with `text`) to a session; its id. */
  const record = async (
    externalId: string,
    batches: number,
    events = 40,
    start = T0,
    text = "",
  ) => {
    for (let i = 0; i < batches; i++) {
      const res = await postIngest(t.app, {
        sessionId: externalId,
        events: recordedEvents(events, start + i * events * 1000).map((e) => ({
          ...e,
          noise: crypto.randomUUID(), // compresses little: batches of a few kB
          ...(text ? { text } : {}),
        })),
      }, { key: w.alpha.key });
      assert.equal(res.status, 204);
    }
    const row = await t.db.kysely.selectFrom("sessions").select("id")
      .where("external_id", "=", externalId).executeTakeFirstOrThrow();
    return row.id;
  };
  const events = async (id: string) => {
    const res = await w.get(`/api/sessions/${id}/events`);
    assert.equal(res.res.status, 200);
    return res.body as { batches: Array<{ id: string; data: string }> };
  };
  const offload = () => offloadOnce({ db: t.db, store: t.deps.store! });
  return { ...w, record, events, offload, store: t.deps.store! };
}

/** Counts the store's range reads (the real store, only watched). */
export function countReads(store: ObjectStore): { reads: number } {
  const counter = { reads: 0 };
  const getRange = store.getRange.bind(store);
  store.getRange = (...args) => {
    counter.reads++;
    return getRange(...args);
  };
  return counter;
}

/** An offloaded batch's row, as these tests select it. */
export interface StoredRow {
  id: number;
  project_id: string;
  session_external_id: string;
  object_key: string | null;
  object_offset: number | null;
  object_length: number | null;
}

/** A batch's bytes read from the store and opened under its session's key (a replay's read). */
export async function openStored(db: Kysely<Database>, store: ObjectStore, row: StoredRow) {
  const sealed = await store.getRange(
    row.object_key!,
    Number(row.object_offset),
    row.object_length!,
  );
  const session = await db.selectFrom("sessions").select("id")
    .where("project_id", "=", row.project_id).where("external_id", "=", row.session_external_id)
    .executeTakeFirstOrThrow();
  const key = await sessionKey(db, store.config.keys, session.id);
  const place = { projectId: row.project_id, sessionExternalId: row.session_external_id };
  return await openBatch(key!, { ...place, batchId: Number(row.id) }, sealed!);
}

/** An object's whole body, read past the app's store (whose reads are exact ranges only). */
export async function wholeObject(config: EventsStoreConfig, key: string): Promise<Buffer> {
  const client = new AwsClient({ ...config, service: "s3", retries: 0 });
  const res = await client.fetch(`${config.bucketUrl}/${key}`);
  assert.equal(res.status, 200, key);
  return Buffer.from(await res.arrayBuffer());
}
