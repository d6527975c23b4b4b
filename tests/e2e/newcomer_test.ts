// The README's path for a newcomer, end to end: the real entry in development mode,
// sign-in with the code from its log, the README's own curl command run with the key the log
// printed, the session arriving live on the Sessions page, and its replay drawing the page. On
// PostgreSQL when DATABASE_URL is set (a fresh database), else on the embedded one.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { type EntryProcess, spawnDeno, waitHealthy } from "@/tests/helpers/entry_process.ts";
import { freshDatabase } from "@/tests/helpers/fresh_database.ts";

const ROOT = new URL("../../", import.meta.url);
const ADMIN_URL = Deno.env.get("DATABASE_URL");

/** The shell block of the README's "Send a first batch" section. */
async function readmeBatchScript(): Promise<string> {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const section = readme.split(/^## /m).find((s) => s.startsWith("Send a first batch"));
  const script = section?.match(/```sh\n([\s\S]*?)```/)?.[1];
  assert.ok(script, "README has a shell block under 'Send a first batch'");
  return script;
}

/** The first match of `pattern` in the process's log, waiting for it to be written. */
async function fromLog(entry: EntryProcess, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const match = entry.output().match(pattern);
    if (match) return match[1];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${pattern} never appeared in the log:\n${entry.output()}`);
}

/** The address the README uses: APP_URL defaults to http://localhost:$PORT. */
const localhost = (entry: EntryProcess) => entry.url.replace("127.0.0.1", "localhost");

async function signIn(page: Page, entry: EntryProcess, email: string) {
  const origin = localhost(entry);
  await page.goto(origin);
  await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
  await page.waitForURL(/\/signin/);
  await page.waitForSelector("fresh-island[data-hydrated='true']");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a code" }).click();
  const code = await fromLog(entry, /auth:otp:dev_code.*?\b(\d{6})\b/);
  await page.getByLabel(/Code sent to/).fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${origin}/sessions`);
}

Deno.test("newcomer e2e: dev start, sign in, the README's curl batch, the session live in Sessions, its replay", async () => {
  const built = await Deno.stat(new URL("static/build/manifest.json", ROOT))
    .then(() => true, () => false);
  assert.ok(built, "the entry serves built assets: run `deno task build` first (CI does)");
  const dataDir = await Deno.makeTempDir({ prefix: "newcomer-" });
  await using database = ADMIN_URL ? await freshDatabase(ADMIN_URL) : null;
  // `deno task dev` is dev.ts = build + NODE_ENV=development + main.ts; the build is left out so
  // the shared static/build stays as other tests expect it.
  await using dev = spawnDeno(["run", "-A", "--unstable-cron", "main.ts"], {
    NODE_ENV: "development",
    DATA_DIR: dataDir,
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  const browser = await launchChromium();
  try {
    await waitHealthy(dev);
    const key = await fromLog(dev, /dev:project:ready.*?\b(sp_[0-9a-f]{32})\b/);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await signIn(page, dev, "newcomer@example.test");

    // Nothing recorded yet: the Playground's snippet with its key, and the live wait.
    const empty = page.getByTestId("sessions-empty");
    await empty.waitFor();
    assert.match(await empty.textContent() ?? "", /Playground/);
    assert.ok((await page.getByTestId("sdk-snippet").textContent())?.includes(key));
    await page.getByTestId("waiting-first-session").waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll("fresh-island")]
        .every((island) => island.getAttribute("data-hydrated") === "true")
    );
    await page.screenshot({ path: await artifactPath("newcomer-waiting.png") });

    // The README's command, as written, with the printed key and this server's address.
    const script = (await readmeBatchScript())
      .replace(/^KEY=sp_\.\.\..*$/m, `KEY=${key}`)
      .replaceAll("http://localhost:3000", localhost(dev));
    const curl = await new Deno.Command("sh", { args: ["-c", script], stdout: "piped" }).output();
    const answer = new TextDecoder().decode(curl.stdout);
    assert.equal(curl.code, 0, answer);
    assert.match(answer, /^HTTP\/1\.1 204/, answer);

    // The wait turns into the list by itself: the session, one second long, entering at "/".
    const table = page.getByTestId("sessions-table");
    await table.waitFor({ timeout: 30_000 });
    const rows = table.locator("tbody tr");
    assert.equal(await rows.count(), 1);
    const row = rows.first();
    const cells = (await row.locator("td").allTextContents()).map((t) => t.trim());
    // No signals, and curl is no browser: both columns say so with a dash.
    assert.deepEqual(cells.slice(0, 7), ["Anonymous", "/", "Playground", "—", "—", "1 s", "3"]);
    assert.equal(await page.getByTestId("kpi-total").textContent(), "1");
    await page.screenshot({ path: await artifactPath("newcomer-sessions.png") });

    // The start page counts it under the Playground.
    await page.goto(localhost(dev));
    const playground = page.locator(`[data-project="Playground"]`);
    assert.equal(await playground.locator("td.num").textContent(), "1");
    await page.goBack();

    // Its replay draws the page the batch described.
    await page.getByTestId("sessions-table").getByRole("link", { name: /Replay/ }).first()
      .click();
    await page.waitForURL(/\/replays\/[^/?]+$/);
    const frame = page.frameLocator("iframe").first();
    await frame.getByText("Hello from curl").waitFor({ timeout: 30_000 });
    await page.screenshot({ path: await artifactPath("newcomer-replay.png") });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await dev[Symbol.asyncDispose]();
    await Deno.remove(dataDir, { recursive: true });
  }
});
