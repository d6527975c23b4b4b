// The health probe's query: the database answers at all.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
