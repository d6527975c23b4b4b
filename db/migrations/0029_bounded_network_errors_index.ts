// No index holds a marker's payload, again (0019's rule): 0028's markers_network_errors_idx
// carried `data` in its INCLUDE, and a failing request's marker (a url of 2,048 characters, its
// endpoint with a token in the path) passed a B-tree row's ~2.7 KB: the batch failed with 500 on
// every retry. The index keeps its key and predicate only; the failing endpoints' read fetches
// `data` from the table, as it already did for `ts` (the old index was never read index-only).
// tests/schema_index_bounds_test.ts now fails on any index that can hold unbounded data.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

const UP = [
  `DROP INDEX markers_network_errors_idx`,
  `CREATE INDEX markers_network_errors_idx ON markers (session_created_at)
     WHERE kind = 'network_error'`,
];

const DOWN = [
  `DROP INDEX markers_network_errors_idx`,
  `CREATE INDEX markers_network_errors_idx ON markers (session_created_at)
     INCLUDE (session_id, data) WHERE kind = 'network_error'`,
];
