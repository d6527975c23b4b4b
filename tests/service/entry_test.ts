// The entries' modes: `deno task start` is strict with no NODE_ENV, and development
// conveniences need NODE_ENV=development, which `deno task dev` (dev.ts) sets.
import assert from "node:assert/strict";
import { type EntryProcess, spawnDeno, waitHealthy } from "@/tests/helpers/entry_process.ts";

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

Deno.test("dev: `deno task dev`'s entry on a fresh clone builds, migrates and serves pages with no other configuration", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "entry-dev-" });
  const buildDir = await Deno.makeTempDir({ prefix: "entry-dev-build-" });
  // dev.ts as the task runs it (without --watch), building into a folder of its own: nothing
  // built beforehand is needed, and static/build stays the production one other tests serve.
  const startDev = () =>
    spawnDeno(["run", "-A", "--unstable-cron", "dev.ts"], {
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
    });
  try {
    let cookie: string;
    {
      await using dev = startDev();
      await waitHealthy(dev);
      const health = await (await fetch(`${dev.url}/api/health`)).json();
      assert.equal(health.databaseKind, "pglite");
      const page = await fetch(`${dev.url}/signin`);
      assert.equal(page.status, 200, dev.output());
      const script = (await page.text()).match(/src="(\/[^"]+\.js)"/)?.[1];
      assert.ok(script, "the sign-in page references its built island script");
      const asset = await fetch(`${dev.url}${script}`);
      assert.equal(asset.status, 200, script);
      await asset.body?.cancel();
      // The conveniences production must never have: the Playground project, with its key and
      // each sign-in code on plain lines, and a secret kept under DATA_DIR.
      assert.match(dev.output(), /dev:project:ready/);
      assert.match(dev.output(), /^Playground project key: sp_[0-9a-f]{32}$/m);
      cookie = await signInWithLoggedCode(dev);
      assert.match(await Deno.readTextFile(`${dataDir}/auth-secret`), /^[0-9a-f]{64}$/);
      assert.match(dev.output(), /auth:secret:dev/);
    }
    // A restart (what --watch does on every change) keeps everyone signed in.
    await using again = startDev();
    await waitHealthy(again);
    const me = await fetch(`${again.url}/api/user`, { headers: { cookie } });
    assert.equal(me.status, 200, await me.text());
  } finally {
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(buildDir, { recursive: true });
  }
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test({
    name: `dev: ${signal} to \`deno task dev\` stops the watcher and every process it started`,
    ignore: Deno.build.os !== "linux", // reads /proc
    fn: async () => {
      const dataDir = await Deno.makeTempDir({ prefix: "entry-dev-signal-" });
      const buildDir = await Deno.makeTempDir({ prefix: "entry-dev-signal-build-" });
      try {
        await using dev = spawnDeno(["task", "dev"], { DATA_DIR: dataDir, BUILD_DIR: buildDir });
        await waitHealthy(dev);
        const family = await descendants(dev.pid);
        assert.ok(family.length >= 1, "the task runs the watcher as a child");
        Deno.kill(dev.pid, signal);
        await dev.status;
        // Each is gone (or a zombie about to be reaped by init).
        for (let i = 0; i < 100 && (await alive(family)).length; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.deepEqual(await alive(family), [], dev.output());
      } finally {
        await Deno.remove(dataDir, { recursive: true });
        await Deno.remove(buildDir, { recursive: true });
      }
    },
  });
}

/** Every process below `pid`, from /proc's parent links. */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid) parents.set(Number(entry.name), ppid);
  }
  const below = (p: number): number[] =>
    [...parents].filter(([, parent]) => parent === p).flatMap((
      [child],
    ) => [child, ...below(child)]);
  return below(pid);
}

/** The processes of `pids` still running (not gone, not zombies). */
async function alive(pids: number[]): Promise<number[]> {
  const states = await Promise.all(pids.map(async (pid) => {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => null);
    return stat && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
      ? pid
      : 0;
  }));
  return states.filter(Boolean);
}

/** Asks for a code, reads it from its plain log line, signs in; the session cookie. */
async function signInWithLoggedCode(dev: EntryProcess): Promise<string> {
  const email = "newcomer@example.test";
  const post = (path: string, body: unknown) =>
    fetch(`${dev.url}${path}`, {
      method: "POST",
      // APP_URL defaults to http://localhost:$PORT, the origin a browser would send.
      headers: {
        "Content-Type": "application/json",
        Origin: dev.url.replace("127.0.0.1", "localhost"),
      },
      body: JSON.stringify(body),
    });
  const send = await post("/api/auth/otp/send", { email });
  assert.equal(send.status, 204, await send.text());
  const code = dev.output().match(/^Sign-in code for newcomer@example\.test: (\d{6})$/m)?.[1];
  assert.ok(code, dev.output());
  const verify = await post("/api/auth/otp/verify", { email, code });
  assert.equal(verify.status, 200, await verify.text());
  return verify.headers.get("set-cookie")!.split(";")[0];
}
