// `deno task db:migrate` as a user runs it on PostgreSQL, in a separate process.
import assert from "node:assert/strict";
import postgres from "postgres";
import { openDb } from "@/db/client.ts";
import { LATEST_MIGRATION, migrationLevel } from "@/db/migrator.ts";
import { runMigrate } from "@/tests/helpers/migrate_process.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";

Deno.test({
  name: "db:migrate: uses DATABASE_URL_UNPOOLED over DATABASE_URL",
  fn: async () => {
    const adminUrl = postgresUrl();
    const name = `playhead_migrate_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const target = new URL(adminUrl);
    target.pathname = `/${name}`;
    try {
      const { code, out } = await runMigrate({
        // the pooled URL points nowhere: only the unpooled one can succeed
        DATABASE_URL: "postgres://nobody@127.0.0.1:1/nowhere",
        DATABASE_URL_UNPOOLED: target.toString(),
      });
      assert.equal(code, 0, out);
      const db = await openDb({ kind: "postgres", url: target.toString(), max: 1 });
      assert.equal(await migrationLevel(db.kysely), LATEST_MIGRATION);
      await db.close();
    } finally {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  },
});
