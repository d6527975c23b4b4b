// Shared set-up of the object-store tests: a signed-in ADMIN whose project records through the
// real ingest endpoint into an app with EVENTS_STORE on a fresh bucket.
import assert from "node:assert/strict";
import type { TestApp } from "@/tests/helpers/app.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { offloadOnce } from "@/core/storage/offload.ts";
import { waitUntil } from "@/tests/faults/service.ts";
import type { ObjectStore } from "@/db/object_store.ts";
import { recent } from "@/tests/helpers/times.ts";

export const T0 = recent(1_760_000_000_000);

export async function storeWorld(t: TestApp) {
  const w = await sessionsWorld(t, "ADMIN");
  // A fresh gateway's first bucket can take longer than a fault test's short store timeout.
  await waitUntil(() => t.deps.store!.ensureBucket().then(() => true), 100);
  /** Posts `batches` batches of `events` events to a session; returns its dashboard id. */
  const record = async (externalId: string, batches: number, events = 40, start = T0) => {
    for (let i = 0; i < batches; i++) {
      const res = await postIngest(t.app, {
        sessionId: externalId,
        events: recordedEvents(events, start + i * events * 1000).map((e) => ({
          ...e,
          noise: crypto.randomUUID(), // compresses little: batches of a few kB
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
