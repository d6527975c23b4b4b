// An error group's key (0021's error_fingerprint: the folded message and the top frame) is a
// rollup key, in a B-tree of at most ~2.7 KB a row: a frame of 1,000 wide characters failed its
// batch. The fingerprint is cut to 500 characters (at most ~2 KB), as every other rollup key is
// bounded (0019, core/ingest/limits.ts).
import { type Kysely, sql } from "kysely";

const fingerprint = (wrap: (body: string) => string) =>
  `CREATE OR REPLACE FUNCTION error_fingerprint(data jsonb) RETURNS text LANGUAGE sql IMMUTABLE
   PARALLEL SAFE AS $$
     SELECT ${
    wrap(`left(error_text_fold(COALESCE($1 ->> 'message', '')), 300) || COALESCE(' @ ' ||
       NULLIF(regexp_replace(regexp_replace(split_part($1 ->> 'stack', E'\\n', 1),
         '[?#][^):]*', '', 'g'), '[0-9]+', '<n>', 'g'), ''), '')`)
  }
   $$`;

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(fingerprint((body) => `left(${body}, 500)`)).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(fingerprint((body) => body)).execute(db);
}
