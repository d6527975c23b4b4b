// The query benchmark's databases: created, migrated and seeded once, then reused while the seed
// (recorded in the database's comment) matches the sizes and is recent; dropped only on request.
import postgres from "postgres";
import { openDb } from "@/db/client.ts";
import { migrateToLatest } from "@/db/migrator.ts";
import { seed, type SeedSizes } from "./seed.ts";

const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
/** By default older seeds are redone: sessions are spread over the 7 days before seeding. */
const REUSE_HOURS = 12;

export const urlOf = (name: string) => ADMIN_URL.replace(/\/postgres$/, `/${name}`);

export function admin<T>(run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  return run(sql).finally(() => sql.end());
}

export function connect<T>(name: string, run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(urlOf(name), { max: 1, onnotice: () => {} });
  return run(sql).finally(() => sql.end());
}

interface SeedRecord extends SeedSizes {
  seededAt: string;
  extra: string;
}

/**
 * The database `name`, seeded with `sizes` (and whatever `extra` adds, keyed by `extraKey`):
 * reused as is (after any new migration) when its recorded seed matches, else made afresh.
 * Returns whether it was seeded now and the seed's time.
 */
export async function ensureSeeded(
  name: string,
  sizes: SeedSizes,
  blob: Uint8Array,
  options: {
    reseed: boolean;
    ageDays?: number;
    /** How old a seed may be and still be reused (a seed of expired sessions never goes stale). */
    maxAgeHours?: number;
    extraKey?: string;
    extra?: (sql: postgres.Sql) => Promise<void>;
    log?: (step: string) => void;
  },
): Promise<{ seeded: boolean; seededAt: Date; seconds: number }> {
  const extra = options.extraKey ?? "";
  const previous = options.reseed ? null : await seedRecord(name);
  const fresh = previous && previous.sessions === sizes.sessions &&
    previous.trackedUsers === sizes.trackedUsers && previous.hotSessions === sizes.hotSessions &&
    previous.extra === extra &&
    Date.now() - Date.parse(previous.seededAt) < (options.maxAgeHours ?? REUSE_HOURS) * 3_600_000;
  if (fresh) {
    await migrate(name);
    return { seeded: false, seededAt: new Date(previous.seededAt), seconds: 0 };
  }
  const started = performance.now();
  options.log?.(`${name}: creating, migrating`);
  await dropDatabase(name);
  await admin((sql) => sql.unsafe(`CREATE DATABASE ${name}`));
  await migrate(name);
  const seededAt = new Date();
  await connect(name, async (sql) => {
    await seed(sql, sizes, blob, { ageDays: options.ageDays, log: options.log });
    await options.extra?.(sql);
  });
  const record: SeedRecord = { ...sizes, seededAt: seededAt.toISOString(), extra };
  await admin((sql) =>
    sql.unsafe(`COMMENT ON DATABASE ${name} IS '${JSON.stringify(record).replaceAll("'", "''")}'`)
  );
  return { seeded: true, seededAt, seconds: (performance.now() - started) / 1000 };
}

/** A throwaway copy of a seeded database (a file copy: no connection to `template` may be open). */
export async function cloneDatabase(template: string, name: string): Promise<void> {
  await dropDatabase(name);
  await admin((sql) =>
    sql.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`)
  );
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function seedRecord(name: string): Promise<SeedRecord | null> {
  const rows = await admin((sql) =>
    sql<{ comment: string | null }[]>`
      SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database
      WHERE datname = ${name}`
  );
  try {
    return rows[0]?.comment ? JSON.parse(rows[0].comment) : null;
  } catch {
    return null;
  }
}

async function migrate(name: string): Promise<void> {
  const db = await openDb({ kind: "postgres", url: urlOf(name), max: 1 });
  try {
    await migrateToLatest(db.kysely);
  } finally {
    await db.close();
  }
}
