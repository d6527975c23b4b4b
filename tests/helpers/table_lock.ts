// A table locked from outside any request (on one of the pool's own connections) until released:
// every request that reads it waits, as it would on a database that hangs.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface TableLock {
  /** Ends the lock's transaction; safe to call twice. */
  release(): Promise<void>;
}

export async function lockTable(db: Kysely<Database>, table: string): Promise<TableLock> {
  const locked = Promise.withResolvers<void>();
  const unlock = Promise.withResolvers<void>();
  const held = db.transaction().execute(async (trx) => {
    await sql`LOCK TABLE ${sql.table(table)} IN ACCESS EXCLUSIVE MODE`.execute(trx);
    locked.resolve();
    await unlock.promise;
  });
  await Promise.race([locked.promise, held]);
  return {
    release: async () => {
      unlock.resolve();
      await held;
    },
  };
}
