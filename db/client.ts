// Opens the database: PostgreSQL through postgres.js when a URL is given, otherwise the embedded
// PGlite (on disk in a folder, or in memory).
import { PGlite, types } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely } from "kysely";
import { dirname, join } from "node:path";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { PGliteDialect } from "./pglite_dialect.ts";
import { connectionShares, sharedDialect, type ShareGate } from "./connection_shares.ts";
import type { Database } from "./schema.ts";

export type DatabaseKind = "postgres" | "pglite";

export interface Db {
  kysely: Kysely<Database>;
  kind: DatabaseKind;
  /** Each request class's share of the connections (db/connection_shares.ts). */
  gate: ShareGate;
  close(): Promise<void>;
}

/** Extensions the migrations create; PGlite must load them explicitly (trigram search, 0003). */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** int8 columns (ms timestamps, counts) fit in a double; read them as numbers on both drivers. */
const INT8_OID = 20;

/**
 * bytea (stored recordings) as PGlite hands it over, hex text, decoded natively: PGlite's own
 * parser takes a call per byte, ~0.1 ms per KB (a first frame's 0.9 MB read took ~130 ms).
 */
const parseBytea = (text: string): Uint8Array =>
  text.startsWith("\\x")
    ? Uint8Array.fromHex(text.slice(2))
    : types.parsers[types.BYTEA](text, types.BYTEA);

export type DbTarget =
  | {
    kind: "postgres";
    url: string;
    max?: number;
    /** Give up connecting after this long (the driver retries on the next query). */
    connectTimeoutMs?: number;
    /** PostgreSQL cancels any statement running longer (statement_timeout). */
    statementTimeoutMs?: number;
    /** How long a query waits for a connection of its request's class (connection_shares.ts). */
    shareWaitMs?: number;
  }
  | { kind: "pglite"; dataDir?: string; loadDataDir?: Blob; shareWaitMs?: number };

/** PGlite is one connection taken in turns; its queue is shared out as if it were ten. */
const PGLITE_SHARED_AS = 10;

/** PostgreSQL at `url`, else the embedded database's one folder under DATA_DIR (start and migrate). */
export function databaseTarget(url: string | null, dataDir: string): DbTarget {
  return url ? { kind: "postgres", url } : { kind: "pglite", dataDir: join(dataDir, "pglite") };
}

export async function openDb(target: DbTarget): Promise<Db> {
  if (target.kind === "postgres") {
    const client = postgres(target.url, {
      max: target.max ?? 10,
      connect_timeout: Math.max(1, Math.ceil((target.connectTimeoutMs ?? 3000) / 1000)),
      connection: target.statementTimeoutMs ? { statement_timeout: target.statementTimeoutMs } : {},
      onnotice: () => {},
      types: {
        bigint: {
          to: INT8_OID,
          from: [INT8_OID],
          parse: (x: string) => Number(x),
          serialize: (x: number) => String(x),
        },
      },
    });
    const dialect = sharedDialect(
      new PostgresJSDialect({ postgres: client }),
      connectionShares(target.max ?? 10),
      target.shareWaitMs,
    );
    const kysely = new Kysely<Database>({ dialect });
    return { kysely, kind: "postgres", gate: dialect.gate, close: once(() => kysely.destroy()) };
  }
  // PGlite creates its own folder but not the folders above it.
  if (target.dataDir) await Deno.mkdir(dirname(target.dataDir), { recursive: true });
  const pg = await PGlite.create({
    dataDir: target.dataDir,
    loadDataDir: target.loadDataDir,
    parsers: { [INT8_OID]: (x: string) => Number(x), [types.BYTEA]: parseBytea },
    extensions: PGLITE_EXTENSIONS,
  });
  const dialect = sharedDialect(
    new PGliteDialect(pg),
    connectionShares(PGLITE_SHARED_AS),
    target.shareWaitMs,
  );
  const kysely = new Kysely<Database>({ dialect });
  return {
    kysely,
    kind: "pglite",
    gate: dialect.gate,
    close: once(async () => {
      await kysely.destroy();
      await pg.close();
    }),
  };
}

/** Closing twice (a test that closed its database early, then disposes it) is harmless. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => (closing ??= close());
}
