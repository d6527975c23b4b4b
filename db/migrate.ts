// `deno task db:migrate`: applies pending migrations with DATABASE_URL_UNPOOLED (migrations need
// a session-mode connection), falling back to DATABASE_URL, or to the embedded database. It reads
// only the database settings: migrating needs no AUTH_SECRET or sign-in method.
import { loadDatabaseConfig } from "@/config.ts";
import { ConfigError } from "@/config/env.ts";
import { databaseTarget, openDb } from "./client.ts";
import { migrateToLatest, migrationLevel } from "./migrator.ts";

const config = loadDatabaseConfigOrExit();
const target = databaseTarget(config.migrationDatabaseUrl, config.dataDir);
const db = await openDb(target.kind === "postgres" ? { ...target, max: 1 } : target);
try {
  const applied = await migrateToLatest(db.kysely);
  console.log(
    applied.length ? `applied: ${applied.join(", ")}` : "nothing to apply",
    `(level ${await migrationLevel(db.kysely)}, ${db.kind})`,
  );
} finally {
  await db.close();
}

function loadDatabaseConfigOrExit() {
  try {
    return loadDatabaseConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
