// `deno task db:migrate`: applies pending migrations with DATABASE_URL_UNPOOLED (migrations need
// a session-mode connection), falling back to DATABASE_URL, or to the embedded database.
import { loadConfig } from "../config.ts";
import { openDb } from "./client.ts";
import { migrateToLatest, migrationLevel } from "./migrator.ts";

const config = loadConfig();
const db = await openDb(
  config.migrationDatabaseUrl
    ? { kind: "postgres", url: config.migrationDatabaseUrl, max: 1 }
    : { kind: "pglite", dataDir: config.dataDir },
);
try {
  const applied = await migrateToLatest(db.kysely);
  console.log(
    applied.length ? `applied: ${applied.join(", ")}` : "nothing to apply",
    `(level ${await migrationLevel(db.kysely)}, ${db.kind})`,
  );
} finally {
  await db.close();
}
