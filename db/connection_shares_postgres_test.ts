// Connection shares on PostgreSQL: an abandoned request's turns go back at once, even while its
// query never settles (PGlite is one connection: there is nothing to hand on).
import assert from "node:assert/strict";
import { Kysely, sql } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";
import {
  abandonRequestWork,
  bindToRequest,
  runAs,
  sharedDialect,
  type Shares,
} from "./connection_shares.ts";

const url = postgresUrl();

function open(shares: Shares, waitMs: number) {
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const dialect = sharedDialect(new PostgresJSDialect({ postgres: client }), shares, waitMs);
  return { kysely: new Kysely({ dialect }), gate: dialect.gate };
}

Deno.test({
  name: "an abandoned request's turns go back at once, even while its query never settles",
  fn: async () => {
    const db = open({ ingest: 1, dashboard: 1, pages: 1, links: 1, health: 1 }, 150);
    const { promise: hang, resolve: release } = Promise.withResolvers<void>();
    const { promise: inside, resolve: entered } = Promise.withResolvers<() => void>();
    // A request whose connection hangs (as a query can on a connection the database dropped).
    const stuck = runAs("dashboard", () =>
      db.kysely.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        entered(bindToRequest(abandonRequestWork));
        await hang;
      }));
    try {
      const abandon = await inside;
      abandon(); // its database budget expired: it was answered 503
      const next = await runAs(
        "dashboard",
        () => sql<{ n: number }>`SELECT 3 AS n`.execute(db.kysely),
      );
      assert.equal(next.rows[0].n, 3);
      release();
      await stuck.catch(() => {});
      assert.equal(db.gate.usage().dashboard.held, 0, "each turn is given back once");
    } finally {
      release();
      await stuck.catch(() => {});
      await db.kysely.destroy();
    }
  },
});
