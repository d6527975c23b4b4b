// The object store's part of the daily cleanup, run after the session sweep under the
// cleanup's lock, so once per run whatever the number of instances (`retentionMs`: the longest
// retention of any project, docs/decisions.md "Retention per project"):
// - pinned sessions past their project's retention move into objects of their own (pins.ts);
// - expired days: every object under a day prefix wholly past retention is deleted (the sessions
//   of that day are all gone by then, the pinned ones moved out); a lifecycle rule on the day
//   prefixes, at the longest retention and a margin, is a second guard;
// - dirty objects (they hold bytes of sessions deleted since) are rewritten with only their live
//   batches, or deleted when none is left; the replaced object waits one run as an orphan, so a
//   replay reading it at that moment is not cut off;
// - orphans (an upload whose commit never came, a replaced object) older than an hour go;
// - reconciliation: any object under the prefix that no batch points at, older than retention
//   and the margin, goes (whatever left it: a lost row, a crash before its row was written);
// - data keys wrapped by a previous store key (EVENTS_STORE_KEY_PREVIOUS) are re-wrapped by the
//   current one: a rotation rewrites no object.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import {
  dirtyObjects,
  forgetDaysBefore,
  forgetObject,
  liveBatches,
  orphanObjects,
  referencedKeys,
  replaceObject,
} from "@/db/queries/storage/objects.ts";
import { recordObject } from "@/db/queries/storage/offload.ts";
import { log } from "@/log.ts";
import { CLAIM_MS } from "./offload.ts";
import { rewrapSessionKeys } from "./keys.ts";
import { movePinnedSessions } from "./pins.ts";
import type { ObjectStore } from "@/db/object_store.ts";

const DAY_MS = 86_400_000;
/** Older than any claim and its upload: an uncommitted object this old will never be committed. */
export const ORPHAN_AGE_MS = Math.max(60 * 60_000, 2 * CLAIM_MS);
/** Days past retention after which the bucket's lifecycle rule deletes an object by itself. */
const LIFECYCLE_MARGIN_DAYS = 2;
const OBJECTS_PER_PASS = 1_000;

export interface StoreSweep {
  expiredDays: number;
  deleted: number;
  rewritten: number;
  orphans: number;
  /** Pinned sessions moved into objects of their own. */
  pinned: number;
  /** Objects no batch points at, older than retention and the margin, deleted. */
  unreferenced: number;
  /** Data keys re-wrapped by the current store key. */
  rewrapped: number;
}

export async function sweepStore(
  db: Kysely<Database>,
  store: ObjectStore,
  now: Date,
  retentionMs: number,
  orphanAgeMs = ORPHAN_AGE_MS,
): Promise<StoreSweep> {
  const counts: StoreSweep = {
    expiredDays: 0,
    deleted: 0,
    rewritten: 0,
    orphans: 0,
    pinned: 0,
    unreferenced: 0,
    rewrapped: 0,
  };
  const firstLiveDay = utcDay(new Date(now.getTime() - retentionMs));
  const days = Math.ceil(retentionMs / DAY_MS) + LIFECYCLE_MARGIN_DAYS;

  // Before any day goes: a day whose pinned session could not be moved waits for the next run.
  const pins = await movePinnedSessions(db, store, now);
  counts.pinned = pins.moved;
  let forgetBefore = firstLiveDay;
  for (const day of (await store.days()).sort()) {
    if (day >= firstLiveDay) continue;
    if (pins.failedDays.has(day)) {
      forgetBefore = day < forgetBefore ? day : forgetBefore;
      continue;
    }
    for await (const key of store.list(store.dayPrefix(day))) {
      await store.delete(key);
      counts.deleted++;
    }
    counts.expiredDays++;
  }
  await forgetDaysBefore(db, forgetBefore);

  // Orphans by the database's clock: `now` may be a test's, and an upload in flight is not one.
  const before = new Date(Date.now() - orphanAgeMs);
  for (const key of await orphanObjects(db, before, OBJECTS_PER_PASS)) {
    await store.delete(key);
    await forgetObject(db, key);
    counts.orphans++;
  }

  for (const { key, day, pinned } of await dirtyObjects(db, firstLiveDay, OBJECTS_PER_PASS)) {
    if (await rewrite(db, store, key, day, pinned)) counts.rewritten++;
  }

  const margin = LIFECYCLE_MARGIN_DAYS * DAY_MS;
  counts.unreferenced = await deleteUnreferenced(
    db,
    store,
    new Date(now.getTime() - retentionMs - margin),
  );
  // Set last: a shorter longest retention shortens the rule only once the pins are out.
  if (!await store.putLifecycle(days)) log.info("storage:lifecycle:unsupported", {});

  const keys = await rewrapSessionKeys(db, store.config.keys);
  counts.rewrapped = keys.rewrapped;
  // `done`: no data key needs a previous store key any more (EVENTS_STORE_KEY_PREVIOUS can go).
  if (store.config.keys.previous.length) log.info("storage:keys:rewrapped", keys);
  return counts;
}

/**
 * Deletes the objects under the prefix last written before `before` that no batch points at;
 * their rows in stored_objects go too. A page of listing at a time.
 */
async function deleteUnreferenced(db: Kysely<Database>, store: ObjectStore, before: Date) {
  let deleted = 0;
  let old: string[] = [];
  const sweepPage = async () => {
    const referenced = await referencedKeys(db, old);
    for (const key of old.filter((k) => !referenced.has(k))) {
      await store.delete(key);
      await forgetObject(db, key);
      deleted++;
    }
    old = [];
  };
  for await (const object of store.listObjects()) {
    if (object.lastModified < before) old.push(object.key);
    if (old.length >= OBJECTS_PER_PASS) await sweepPage();
  }
  await sweepPage();
  if (deleted) log.info("storage:reconcile:deleted", { objects: deleted });
  return deleted;
}

/** Rewrites an object with only its live batches (or deletes it); false when it could not. */
async function rewrite(
  db: Kysely<Database>,
  store: ObjectStore,
  key: string,
  day: string,
  pinned: boolean,
) {
  const live = await liveBatches(db, key, day);
  if (!live.length) {
    await store.delete(key);
    await forgetObject(db, key);
    return true;
  }
  const parts: Uint8Array[] = [];
  // Runs of adjacent live batches are one range read each.
  for (let i = 0; i < live.length;) {
    let j = i + 1;
    while (j < live.length && live[j].offset === live[j - 1].offset + live[j - 1].length) j++;
    const start = live[i].offset;
    const end = live[j - 1].offset + live[j - 1].length;
    const bytes = await store.getRange(key, start, end - start);
    if (!bytes) {
      log.error("storage:rewrite:missing", { key, start, end });
      return false;
    }
    parts.push(bytes);
    i = j;
  }
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.length;
  }
  let newOffset = 0;
  const moves = live.map((b) => ({ ...b, newOffset: (newOffset += b.length) - b.length }));
  const newKey = pinned ? store.pinnedKey(day) : store.newKey(day);
  await recordObject(db, newKey, day, body.length, pinned);
  await store.put(newKey, body);
  await replaceObject(db, key, newKey, moves);
  log.info("storage:rewrite:ok", { key, newKey, batches: live.length, bytes: body.length });
  return true;
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);
