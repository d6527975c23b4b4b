// Per-project network settings (docs/decisions.md "Network capture"): whether the SDK records
// fetch and XHR requests, which headers it keeps, which paths' bodies, and whether it measures web
// vitals. Off by default; the bounds are the API's (core/projects/network_limits.ts).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE projects
     ADD COLUMN network_enabled boolean NOT NULL DEFAULT false,
     ADD COLUMN network_headers text[] NOT NULL
       DEFAULT '{content-type,content-length,accept}'
       CHECK (cardinality(network_headers) <= 30),
     ADD COLUMN network_body_urls text[] NOT NULL DEFAULT '{}'
       CHECK (cardinality(network_body_urls) <= 50),
     ADD COLUMN network_vitals boolean NOT NULL DEFAULT true`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE projects
     DROP COLUMN network_enabled,
     DROP COLUMN network_headers,
     DROP COLUMN network_body_urls,
     DROP COLUMN network_vitals`.execute(db);
}
