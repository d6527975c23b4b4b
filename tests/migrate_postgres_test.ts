// `deno task db:migrate` as a user runs it on PostgreSQL, in a separate process.
import assert from "node:assert/strict";
import { openDb } from "@/db/client.ts";
import { LATEST_MIGRATION, migrationLevel } from "@/db/migrator.ts";
import { freshDatabase } from "@/tests/helpers/fresh_database.ts";
import { runMigrate } from "@/tests/helpers/migrate_process.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";

Deno.test("db:migrate: uses DATABASE_URL_UNPOOLED over DATABASE_URL", async () => {
  await using target = await freshDatabase(postgresUrl());
  const { code, out } = await runMigrate({
    // the pooled URL points nowhere: only the unpooled one can succeed
    DATABASE_URL: "postgres://nobody@127.0.0.1:1/nowhere",
    DATABASE_URL_UNPOOLED: target.url,
  });
  assert.equal(code, 0, out);
  const db = await openDb({ kind: "postgres", url: target.url, max: 1 });
  assert.equal(await migrationLevel(db.kysely), LATEST_MIGRATION);
  await db.close();
});
