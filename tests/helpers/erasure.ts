// Erasure checks (tests/tracked_users/erase_test.ts): which tables hold a text anywhere, inline
// batches unzipped as the replay reads them, and the row counts an erasure may change.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

/** Rows of every table whose text (text, varchar, jsonb columns) holds `needle`, by table. */
export async function tablesHolding(db: Kysely<Database>, needle: string): Promise<string[]> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    SELECT c.table_name, c.column_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_name = c.table_name
      AND t.table_schema = c.table_schema AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = current_schema()
      AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'character')
  `.execute(db);
  const found = new Set<string>();
  for (const c of columns) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::integer AS n FROM ${sql.table(c.table_name)}
      WHERE ${sql.ref(c.column_name)}::text LIKE ${"%" + needle + "%"}
    `.execute(db);
    // A day partition (migration 0012) counts as its table.
    if (rows[0].n > 0) found.add(c.table_name.replace(/_(d\d{8}|default)$/, ""));
  }
  // Inline batches are gzip: read them as the replay does.
  const batches = await db.selectFrom("event_batches").select("data").where("data", "is not", null)
    .execute();
  for (const b of batches) {
    const text = await new Response(
      new Blob([b.data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
        new DecompressionStream("gzip"),
      ),
    ).text();
    if (text.includes(needle)) found.add("event_batches.data");
  }
  return [...found].sort();
}

export async function counts(db: Kysely<Database>) {
  const n = async (table: keyof Database) =>
    Number(
      (await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()).n,
    );
  return {
    sessions: await n("sessions"),
    users: await n("tracked_users"),
    batches: await n("event_batches"),
    markers: await n("markers"),
    keys: await n("session_data_keys"),
    shares: await n("session_shares"),
    comments: await n("session_comments"),
    tombstones: await n("erased_sessions"),
    erasedUsers: await n("erased_tracked_users"),
  };
}
