// The cost of sealing for bench:storage, measured in one run: the big session's batches, sealed by
// the offloader, are also uploaded in clear (as the offloader wrote them before migration 0033, and
// as the read path still reads such batches), and the rows are switched between the two copies,
// rounds interleaved, so the same server reads the same session both ways.
import type postgres from "postgres";
import { loadConfig } from "@/config.ts";
import { ObjectStore } from "@/db/object_store.ts";

interface Placement {
  id: string;
  key: string;
  offset: string;
  length: number;
}

/** The offloader's object size: 32 one-MiB batches per object, as its 32 MiB flushes make. */
const BATCHES_PER_OBJECT = 32;

/**
 * Uploads a copy in clear of the session's batches (each is `blob`), and answers a switch that
 * points the rows at either copy.
 */
export async function clearCopy(
  sql: postgres.Sql,
  env: Record<string, string>,
  sessionExternalId: string,
  blob: Uint8Array,
) {
  const store = new ObjectStore(loadConfig({ NODE_ENV: "test", ...env }).eventsStore!);
  const rows = await sql<Placement[]>`
    SELECT id::text, object_key AS key, object_offset::text AS offset, object_length AS length
    FROM event_batches WHERE session_external_id = ${sessionExternalId}
    ORDER BY first_ts, id`;
  const sealed = rows.map((r) => ({ ...r }));
  const clear: Placement[] = [];
  for (let i = 0; i < rows.length; i += BATCHES_PER_OBJECT) {
    const n = Math.min(BATCHES_PER_OBJECT, rows.length - i);
    const body = new Uint8Array(n * blob.length);
    for (let j = 0; j < n; j++) body.set(blob, j * blob.length);
    const key = store.newKey(new Date().toISOString().slice(0, 10));
    await store.put(key, body);
    for (let j = 0; j < n; j++) {
      clear.push({ id: rows[i + j].id, key, offset: String(j * blob.length), length: blob.length });
    }
  }
  /** Points every batch at its sealed copy, or at its copy in clear. */
  return async (mode: "sealed" | "clear") => {
    const to = mode === "sealed" ? sealed : clear;
    await sql`
      UPDATE event_batches b SET object_key = t.key, object_offset = t.off,
        object_length = t.len, object_sealed = ${mode === "sealed" ? true : null}::boolean
      FROM unnest(${to.map((p) => p.id)}::bigint[], ${to.map((p) => p.key)}::text[],
        ${to.map((p) => p.offset)}::bigint[], ${to.map((p) => p.length)}::int[])
        AS t(id, key, off, len)
      WHERE b.id = t.id`;
  };
}
