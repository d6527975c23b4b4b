// `deno task db:migrate` as a user runs it on the embedded database (on PostgreSQL:
// migrate_postgres_test.ts).
import assert from "node:assert/strict";
import { LATEST_MIGRATION } from "@/db/migrator.ts";
import { runMigrate } from "@/tests/helpers/migrate_process.ts";

Deno.test("db:migrate: applies every migration to the embedded database in DATA_DIR, then has nothing to do", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const first = await runMigrate({ DATA_DIR: dataDir });
    assert.equal(first.code, 0, first.out);
    assert.match(first.out, new RegExp(`applied: .*${LATEST_MIGRATION}`));
    const second = await runMigrate({ DATA_DIR: dataDir });
    assert.equal(second.code, 0, second.out);
    assert.match(second.out, /nothing to apply/);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
