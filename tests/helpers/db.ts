// Disposable, migrated test databases: `await using db = await createTestDb()`. The embedded
// PGlite (in memory) by default; a fresh PostgreSQL database when DATABASE_URL is set.
import { sql } from "kysely";
import postgres from "postgres";
import { type Db, openDb, PGLITE_EXTENSIONS } from "@/db/client.ts";
import { LATEST_MIGRATION, migrateToLatest, MIGRATION_NAMES } from "@/db/migrator.ts";

export type TestDb = Db & AsyncDisposable;

export function createTestDb(): Promise<TestDb> {
  const url = Deno.env.get("DATABASE_URL");
  return url ? createPostgresDb(url) : createPgliteDb();
}

// Creating and migrating PGlite takes seconds; cloning a migrated data directory takes a fraction.
let pgliteTemplate: Promise<Blob> | null = null;

async function createPgliteDb(): Promise<TestDb> {
  pgliteTemplate ??= (async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const { Kysely } = await import("kysely");
    const { PGliteDialect } = await import("@/db/pglite_dialect.ts");
    const pg = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    await migrateToLatest(new Kysely({ dialect: new PGliteDialect(pg) }));
    const dump = await pg.dumpDataDir("none");
    await pg.close();
    return dump;
  })();
  const db = idlePglite.pop() ??
    await openDb({ kind: "pglite", loadDataDir: await pgliteTemplate });
  let closedByTest = false;
  return {
    ...db,
    close: () => {
      closedByTest = true;
      return db.close();
    },
    // A disposed database is emptied and kept for the module's next test: emptying takes
    // milliseconds where loading a fresh copy takes most of a second.
    [Symbol.asyncDispose]: async () => {
      if (closedByTest) return;
      await emptyAllTables(db);
      idlePglite.push(db);
    },
  };
}

const idlePglite: Db[] = [];

/**
 * Closes the databases kept for reuse. A kept PGlite holds the process open, so a script (a
 * benchmark) calls this when done; a test run ends its process by itself.
 */
export async function closeIdleDatabases(): Promise<void> {
  await Promise.all(idlePglite.splice(0).map((db) => db.close()));
}

async function emptyAllTables(db: Db): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    SELECT quote_ident(tablename) AS name FROM pg_tables
    WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_migration%'
  `.execute(db.kysely);
  const tables = rows.map((r) => r.name).join(", ");
  await sql.raw(`TRUNCATE ${tables} RESTART IDENTITY CASCADE`).execute(db.kysely);
}

// On PostgreSQL each test gets its own database, cloned from a migrated template.
async function createPostgresDb(url: string): Promise<TestDb> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  // The count too: a migration that lands below the newest one still needs a new template.
  const level = `${MIGRATION_NAMES.length}_${LATEST_MIGRATION}`;
  const template = `playhead_template_${level.replace(/\W/g, "_")}`;
  const name = `playhead_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  try {
    // max: 1, so the session-level lock and the statements share one connection
    await admin`SELECT pg_advisory_lock(hashtext(${template}))`;
    const [exists] = await admin`SELECT 1 FROM pg_database WHERE datname = ${template}`;
    if (!exists) await createTemplate(admin, url, template);
    await admin`SELECT pg_advisory_unlock(hashtext(${template}))`;
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const db = await openDb({ kind: "postgres", url: withDatabase(url, name), max: 10 });
  return {
    ...db,
    [Symbol.asyncDispose]: async () => {
      await db.close();
      const cleanup = postgres(url, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

async function createTemplate(admin: postgres.Sql, url: string, template: string) {
  const building = `${template}_build_${Date.now()}`;
  await admin.unsafe(`CREATE DATABASE ${building}`);
  const db = await openDb({ kind: "postgres", url: withDatabase(url, building), max: 1 });
  try {
    await migrateToLatest(db.kysely);
  } finally {
    await db.close();
  }
  await admin.unsafe(`ALTER DATABASE ${building} RENAME TO ${template}`);
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
