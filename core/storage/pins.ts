// Pinned sessions in the object store (docs/decisions.md "Retention per project"): before the
// daily cleanup deletes a day's packed objects, each pinned session past its project's retention
// has its batches copied, still sealed, into one object of its own under `pinned/` (outside the
// day prefixes and their lifecycle rule), so the day still goes whole. The bytes are moved as they
// are: the additional data names the batch, not its place.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import type { ObjectStore } from "@/db/object_store.ts";
import { recordObject } from "@/db/queries/storage/offload.ts";
import { commitPinnedMove, pinnedToMove, sessionStoredBatches } from "@/db/queries/storage/pins.ts";
import { log } from "@/log.ts";

const SESSIONS_PER_PASS = 1_000;

/**
 * Moves the pinned sessions past retention out of packed objects. Returns how many moved and the
 * days (YYYY-MM-DD) of those that could not (a missing range): those days are not deleted yet.
 */
export async function movePinnedSessions(
  db: Kysely<Database>,
  store: ObjectStore,
  now: Date,
): Promise<{ moved: number; failedDays: Set<string> }> {
  const failedDays = new Set<string>();
  let moved = 0;
  for (const session of await pinnedToMove(db, now, SESSIONS_PER_PASS)) {
    const batches = await sessionStoredBatches(db, session);
    const parts: Uint8Array[] = [];
    let missing = false;
    // Runs of adjacent batches of one object are one range read each.
    for (let i = 0; i < batches.length && !missing;) {
      let j = i + 1;
      while (
        j < batches.length && batches[j].key === batches[i].key &&
        batches[j].offset === batches[j - 1].offset + batches[j - 1].length
      ) j++;
      const start = batches[i].offset;
      const end = batches[j - 1].offset + batches[j - 1].length;
      const bytes = await store.getRange(batches[i].key, start, end - start);
      if (bytes) parts.push(bytes);
      else missing = true;
      i = j;
    }
    if (missing || !batches.length) {
      log.error("storage:pin:missing", { sessionId: session.id });
      failedDays.add(session.day);
      continue;
    }
    const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of parts) {
      body.set(part, offset);
      offset += part.length;
    }
    let next = 0;
    const moves = batches.map((b) => ({ ...b, newOffset: (next += b.length) - b.length }));
    const key = store.pinnedKey(session.day);
    await recordObject(db, key, session.day, body.length, true);
    await store.put(key, body);
    await commitPinnedMove(db, key, moves);
    log.info("storage:pin:moved", { sessionId: session.id, key, batches: batches.length });
    moved++;
  }
  return { moved, failedDays };
}
