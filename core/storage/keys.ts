// Sessions' data keys (docs/decisions.md "Recordings in an object store"): one random AES-256 key
// per session, created by the offloader when it first seals a batch of that session, stored wrapped
// (AES-KW) by the store key (EVENTS_STORE_KEY) with that key's id. A rotated store key still
// unwraps what it wrapped (EVENTS_STORE_KEY_PREVIOUS) until the daily cleanup re-wraps those keys:
// a small table update, no object rewritten.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import type { StoreKey, StoreKeys } from "@/config/events_store.ts";
import {
  insertKeys,
  keysOfSessions,
  keysWrappedBy,
  rewrapKeys,
  sessionKeyRow,
  type WrappedKey,
} from "@/db/queries/storage/keys.ts";

type Db = Kysely<Database>;

/** No store key configured unwraps this data key (an unknown key id, or a wrong key). */
export class KeyUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyUnavailable";
  }
}

const imported = new WeakMap<StoreKey, Promise<CryptoKey>>();

/** The store key as a WebCrypto AES-KW key (imported once). */
function kek(key: StoreKey): Promise<CryptoKey> {
  let out = imported.get(key);
  if (!out) {
    out = crypto.subtle.importKey("raw", key.raw as Uint8Array<ArrayBuffer>, "AES-KW", false, [
      "wrapKey",
      "unwrapKey",
    ]);
    imported.set(key, out);
  }
  return out;
}

/** `dataKey` (extractable) wrapped by the current store key. */
export async function wrapKey(keys: StoreKeys, dataKey: CryptoKey): Promise<WrappedKey> {
  const wrapped = await crypto.subtle.wrapKey("raw", dataKey, await kek(keys.current), "AES-KW");
  return { kek_id: keys.current.id, wrapped: new Uint8Array(wrapped) };
}

/** The data key, unwrapped by the store key whose id it names; throws KeyUnavailable. */
export async function unwrapKey(
  keys: StoreKeys,
  key: WrappedKey,
  extractable = false,
): Promise<CryptoKey> {
  const by = [keys.current, ...keys.previous].find((k) => k.id === key.kek_id);
  if (!by) {
    throw new KeyUnavailable(
      `a data key is wrapped by store key ${key.kek_id}, which is neither EVENTS_STORE_KEY nor ` +
        "in EVENTS_STORE_KEY_PREVIOUS",
    );
  }
  try {
    return await crypto.subtle.unwrapKey(
      "raw",
      key.wrapped as Uint8Array<ArrayBuffer>,
      await kek(by),
      "AES-KW",
      "AES-GCM",
      extractable,
      ["encrypt", "decrypt"],
    );
  } catch {
    throw new KeyUnavailable(`store key ${key.kek_id} does not unwrap a data key`);
  }
}

/** A new random data key (extractable, so it can be wrapped). */
export async function newDataKey(): Promise<CryptoKey> {
  return await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, [
    "encrypt",
    "decrypt",
  ]);
}

/** How the offloader names a session: as its batches do. */
export const sessionRef = (projectId: string, externalId: string) => `${projectId}\0${externalId}`;

/**
 * The data keys of these sessions, by `sessionRef`, each created when it has none (another
 * offloader's wins a race). A session deleted meanwhile has none: its batches are not offloaded.
 */
export async function offloadKeys(
  db: Db,
  keys: StoreKeys,
  sessions: Array<{ project_id: string; external_id: string }>,
): Promise<Map<string, CryptoKey>> {
  const unique = [...new Map(sessions.map((s) => [sessionRef(s.project_id, s.external_id), s]))
    .values()];
  let rows = await keysOfSessions(db, unique);
  const missing = rows.filter((r) => !r.key);
  if (missing.length) {
    await insertKeys(
      db,
      await Promise.all(
        missing.map(async (r) => ({
          session_id: r.session_id,
          ...await wrapKey(keys, await newDataKey()),
        })),
      ),
    );
    rows = [...rows.filter((r) => r.key), ...await keysOfSessions(db, missing)];
  }
  const out = new Map<string, CryptoKey>();
  await Promise.all(rows.map(async (r) => {
    if (r.key) out.set(sessionRef(r.project_id, r.external_id), await unwrapKey(keys, r.key));
  }));
  return out;
}

/**
 * A session's data key (`extractable` to hand its bytes to a worker that opens its batches); null
 * when it has none (destroyed); throws KeyUnavailable.
 */
export async function sessionKey(
  db: Db,
  keys: StoreKeys,
  sessionId: string,
  extractable = false,
): Promise<CryptoKey | null> {
  const row = await sessionKeyRow(db, sessionId);
  return row && await unwrapKey(keys, row, extractable);
}

const REWRAP_ROWS = 1_000;

/**
 * Re-wraps with the current store key every data key a previous one wrapped, in slices, up to
 * `max`; `done` once none is left, when EVENTS_STORE_KEY_PREVIOUS can be emptied.
 */
export async function rewrapSessionKeys(
  db: Db,
  keys: StoreKeys,
  max = 200_000,
): Promise<{ rewrapped: number; done: boolean }> {
  const previous = keys.previous.map((k) => k.id).filter((id) => id !== keys.current.id);
  let rewrapped = 0;
  while (rewrapped < max) {
    const rows = await keysWrappedBy(db, previous, REWRAP_ROWS);
    if (!rows.length) return { rewrapped, done: true };
    const moved = await rewrapKeys(
      db,
      await Promise.all(rows.map(async (r) => ({
        session_id: r.session_id,
        old_kek_id: r.kek_id,
        ...await wrapKey(keys, await unwrapKey(keys, r, true)),
      }))),
    );
    rewrapped += moved;
    if (moved === 0) break; // every row changed under us: the next run takes it up
  }
  return { rewrapped, done: !(await keysWrappedBy(db, previous, 1)).length };
}
