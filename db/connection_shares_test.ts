// Connection shares on the real databases: a class holds at most its share, its extra queries
// wait and then fail ShareBusy, another class is not held up (PostgreSQL: PGlite is one
// connection), and an abandoned request's next query is never sent (its turns given back while a
// query hangs: connection_shares_postgres_test.ts).
import assert from "node:assert/strict";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, sql } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import {
  abandonRequestWork,
  connectionShares,
  runAs,
  ShareBusy,
  sharedDialect,
  type Shares,
  WorkAbandoned,
} from "./connection_shares.ts";
import { PGliteDialect } from "./pglite_dialect.ts";

const url = Deno.env.get("DATABASE_URL");

async function open(shares: Shares, waitMs: number) {
  if (url) {
    const client = postgres(url, { max: 10, onnotice: () => {} });
    const dialect = sharedDialect(new PostgresJSDialect({ postgres: client }), shares, waitMs);
    return { kysely: new Kysely({ dialect }), gate: dialect.gate, pglite: false };
  }
  const dialect = sharedDialect(new PGliteDialect(await PGlite.create()), shares, waitMs);
  return { kysely: new Kysely({ dialect }), gate: dialect.gate, pglite: true };
}

Deno.test("connection shares add up to the pool, one each at the least; public links have their own", () => {
  const shares = (ingest: number, dashboard: number, pages: number, links: number) => ({
    ingest,
    dashboard,
    pages,
    links,
    health: 1,
  });
  assert.deepEqual(connectionShares(10), shares(4, 3, 1, 1));
  assert.deepEqual(connectionShares(20), shares(8, 6, 2, 2));
  assert.deepEqual(connectionShares(1), shares(1, 1, 1, 1));
});

Deno.test("a class holds at most its share; past it a query waits, then ShareBusy", async () => {
  const db = await open({ ingest: 2, dashboard: 2, pages: 1, links: 1, health: 1 }, 150);
  try {
    const { promise: hold, resolve: release } = Promise.withResolvers<void>();
    const holders = [0, 1].map(() =>
      runAs("dashboard", () =>
        db.kysely.transaction().execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
          await hold;
        }))
    );
    const third = runAs("dashboard", () => sql`SELECT 1`.execute(db.kysely));
    await assert.rejects(third, ShareBusy);
    assert.equal(db.gate.usage().dashboard.held, 2);
    // Counted for /metrics: the one query that waited, and gave up.
    assert.deepEqual(
      [db.gate.usage().dashboard.waits, db.gate.usage().dashboard.busy],
      [1, 1],
    );
    assert.equal(db.gate.usage().ingest.waits, 0);
    if (!db.pglite) {
      // Another class has connections of its own while the dashboard's are all taken.
      const other = await runAs(
        "ingest",
        () => sql<{ n: number }>`SELECT 2 AS n`.execute(db.kysely),
      );
      assert.equal(other.rows[0].n, 2);
    }
    release();
    await Promise.all(holders);
    assert.equal(db.gate.usage().dashboard.held, 0);
    assert.equal(db.gate.usage().dashboard.peak, 2);
    // Work outside any request (migrations, the cleanup) is not limited.
    await sql`SELECT 1`.execute(db.kysely);
  } finally {
    await db.kysely.destroy();
  }
});

Deno.test("an abandoned request's next query is not sent", async () => {
  const db = await open(connectionShares(10), 1000);
  try {
    await sql`CREATE TEMPORARY TABLE IF NOT EXISTS done (n int)`.execute(db.kysely);
    await runAs("dashboard", async () => {
      abandonRequestWork();
      await assert.rejects(sql`INSERT INTO done VALUES (1)`.execute(db.kysely), WorkAbandoned);
    });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM done`.execute(
      db.kysely,
    );
    assert.equal(rows[0].n, 0);
  } finally {
    await db.kysely.destroy();
  }
});
