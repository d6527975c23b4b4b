// The entries' modes (issue 12 #14): `deno task start` is strict with no NODE_ENV, and development
// conveniences need NODE_ENV=development, which `deno task dev` (dev.ts) sets.
import assert from "node:assert/strict";
import { spawnDeno, waitHealthy } from "../helpers/entry_process.ts";

Deno.test("start: with no configuration it refuses to start and names every missing variable", async () => {
  await using start = spawnDeno(["task", "-q", "start"], {});
  const { code } = await start.status;
  assert.equal(code, 1, start.output());
  const output = start.output();
  for (
    const missing of [
      "AUTH_SECRET is required",
      "APP_URL (or AUTH_URL or PLATFORM_URL) is required",
      "DATABASE_URL is required",
      "no primary sign-in method is configured",
    ]
  ) {
    assert.ok(output.includes(missing), `${missing} in:\n${output}`);
  }
  // One message, printed before anything is opened or listened on.
  assert.equal(output.match(/Invalid configuration/g)?.length, 1, output);
  assert.doesNotMatch(output, /server:listen|dev:project/);
});

Deno.test("start: production refuses a placeholder AUTH_SECRET, naming the variable", async () => {
  await using start = spawnDeno(["task", "-q", "start"], {
    AUTH_SECRET: "changeme",
    APP_URL: "https://playhead.example.com",
    DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
    MAIL_USER: "bot@x.test",
    MAIL_APP_PASSWORD: "pw",
  });
  const { code } = await start.status;
  assert.equal(code, 1, start.output());
  const output = start.output();
  assert.match(output, /AUTH_SECRET is too weak for production \(a placeholder\)/);
  assert.equal(output.match(/Invalid configuration/g)?.length, 1, output);
  assert.doesNotMatch(output, /server:listen/);
});

Deno.test("start: NODE_ENV=development, as dev.ts sets it, runs with no other configuration", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "entry-dev-" });
  try {
    // dev.ts = build + NODE_ENV=development + main.ts; the build is left out so the shared
    // static/build stays the production one other tests serve.
    await using dev = spawnDeno(["run", "-A", "--unstable-cron", "main.ts"], {
      NODE_ENV: "development",
      DATA_DIR: dataDir,
    });
    await waitHealthy(dev);
    const health = await (await fetch(`${dev.url}/api/health`)).json();
    assert.equal(health.databaseKind, "pglite");
    const page = await fetch(`${dev.url}/signin`);
    assert.equal(page.status, 200);
    await page.body?.cancel();
    // The conveniences production must never have: the Playground project and a throwaway secret.
    assert.match(dev.output(), /dev:project:ready/);
    assert.match(dev.output(), /auth:secret:ephemeral|sessions end when the process restarts/);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
