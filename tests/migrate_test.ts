// `deno task db:migrate` as a user runs it: a separate process, configured by the environment.
import assert from "node:assert/strict";
import postgres from "postgres";
import { openDb } from "@/db/client.ts";
import { LATEST_MIGRATION, migrationLevel } from "@/db/migrator.ts";

async function runMigrate(env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "db/migrate.ts"],
    // Only what deno itself needs, so the caller's DATABASE_URL cannot leak into the run.
    // No NODE_ENV or AUTH_SECRET: migrating needs only the database settings.
    env: { ...pick("HOME", "PATH", "DENO_DIR"), ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, out: decode(stdout) + decode(stderr) };
}

function pick(...names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => Deno.env.has(n) ? [[n, Deno.env.get(n)!]] : []));
}

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

Deno.test({
  name: "db:migrate: uses DATABASE_URL_UNPOOLED over DATABASE_URL",
  ignore: !Deno.env.get("DATABASE_URL"),
  fn: async () => {
    const adminUrl = Deno.env.get("DATABASE_URL")!;
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
