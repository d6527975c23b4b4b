// Shared set-up of the replay browser tests: one server with built islands and one Chromium per
// test file, a signed-in VIEWER, recordings posted through the real ingest endpoint the way the
// SDK cuts them, and helpers to read the player's state from the page.
import type { Kysely } from "kysely";
import type { Browser, Frame, Page } from "playwright-core";
import type { Database } from "@/db/schema.ts";
import type { AppDeps } from "@/core/deps.ts";
import { cutSession, loadRecording, type RrwebEvent } from "@/bench/corpus_batches.ts";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { gzipBytes, METADATA } from "@/tests/helpers/ingest.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { metaEvent, pageSnapshot, textNode } from "@/tests/helpers/recording_fixture.ts";

export type { RrwebEvent };

export interface ReplayWorld extends AsyncDisposable {
  url: string;
  db: Kysely<Database>;
  /** The server's dependencies (a benchmark swaps its frame drawer). */
  deps: AppDeps;
  browser: Browser;
  organizationId: string;
  cookie: string;
  key: string;
  /** Posts `events` through ingest, cut as the SDK would; returns the stored session's id. */
  record(
    events: RrwebEvent[],
    options?: { metadata?: object; externalId?: string },
  ): Promise<string>;
  /** Posts one more request of an existing session. */
  post(externalId: string, events: RrwebEvent[], metadata?: object): Promise<void>;
  /** A signed-in page (errors collected in `errors`) with a window of the given size. */
  page(size?: { width: number; height: number }): Promise<ReplayPage>;
}

export interface ReplayPage {
  page: Page;
  errors: string[];
}

/** `dev: false` serves minified islands, as production does (for the benchmark). */
export async function startReplayWorld({ dev = true } = {}): Promise<ReplayWorld> {
  const server = await startPagesServer({}, { dev });
  const db = server.t.db.kysely;
  const viewer = await signedInUser(server.t, { role: "VIEWER" });
  const project = await insertProject(db, { organizationId: viewer.organizationId });
  const browser = await launchChromium();

  const post = async (externalId: string, events: RrwebEvent[], metadata?: object) => {
    const body = JSON.stringify({ sessionId: externalId, events, metadata });
    const response = await fetch(`${server.url}/api/ingest`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "x-service-public-key": project.key,
      },
      body: await gzipBytes(new TextEncoder().encode(body)),
    });
    if (response.status !== 204) {
      throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
    }
  };

  return {
    url: server.url,
    db,
    deps: server.t.deps,
    browser,
    organizationId: viewer.organizationId,
    cookie: viewer.cookie,
    key: project.key,
    post,
    async record(events, options = {}) {
      const externalId = options.externalId ?? crypto.randomUUID();
      const metadata = options.metadata ?? { ...METADATA, url: hrefOf(events) };
      const cut = cutSession(events, { flushIntervalMs: 60_000, flushAtEvents: 2_000 });
      for (const batch of cut) {
        await post(externalId, batch.events, batch.withMetadata ? metadata : undefined);
      }
      const row = await db.selectFrom("sessions").select("id")
        .where("external_id", "=", externalId).executeTakeFirstOrThrow();
      return row.id;
    },
    async page(size = { width: 1440, height: 900 }) {
      const context = await browser.newContext({
        viewport: size,
        permissions: ["clipboard-read", "clipboard-write"],
      });
      const [name, value] = viewer.cookie.split("=");
      await context.addCookies([{ name, value, url: server.url }]);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      return { page, errors };
    },
    [Symbol.asyncDispose]: async () => {
      await browser.close();
      await server[Symbol.asyncDispose]();
    },
  };
}

function hrefOf(events: RrwebEvent[]): string {
  const meta = events.find((e) => e.type === 4);
  return (meta?.data as { href?: string })?.href ?? METADATA.url;
}

export { loadRecording };

/** Opens the replay page and waits for the first frame (the player reports ready). */
export async function openReplay(page: Page, url: string, sessionId: string, query = "") {
  await page.goto(`${url}/replays/${sessionId}${query}`);
  await page.locator(".replay-player[data-ready='true']").waitFor();
}

/** Waits until every batch is decoded (the loading progress is gone). */
export async function waitLoaded(page: Page) {
  await page.locator(".replay-progress").waitFor({ state: "detached" });
}

/** The clock as shown: current and total, in real ms (second precision). */
export async function clockMs(page: Page): Promise<{ now: number; total: number }> {
  const parse = (text: string | null) =>
    (text ?? "").split(":").reduce((ms, part) => ms * 60 + Number(part), 0) * 1000;
  return {
    now: parse(await page.getByTestId("clock-now").textContent()),
    total: parse(await page.getByTestId("clock-total").textContent()),
  };
}

/** The seek bar's value and maximum (displayed timeline, ms). */
export async function seekValue(page: Page): Promise<{ value: number; max: number }> {
  const seek = page.getByRole("slider", { name: "Seek" });
  return {
    value: Number(await seek.inputValue()),
    max: Number(await seek.getAttribute("max")),
  };
}

/** The replayed document's visible text, whitespace-collapsed. */
export async function frameText(page: Page): Promise<string> {
  return await page.locator(".replay-root iframe").evaluate((iframe: HTMLIFrameElement) =>
    (iframe.contentDocument?.body?.innerText ?? "").replace(/\s+/g, " ").trim()
  );
}

/**
 * Holds the page's island scripts until `release()`, to see what the server rendered before any of
 * them runs (the server's first frame).
 */
export async function holdIslands(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  await page.route("**/build/**", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Presses Play and waits until the player has played to the recording's end. */
export async function playToEnd(page: Page) {
  await page.getByRole("button", { name: "Play" }).click();
  await page.locator(".replay-player[data-ended='true']").waitFor();
}

/** The server-rendered first frame's iframe (present until the player has drawn its own). */
export const serverFrame = (page: Page) => page.locator(".replay-server-frame iframe");

/** Waits until the server's first frame has a document with content; returns that document's frame. */
export async function waitServerFrame(page: Page): Promise<Frame> {
  // the page's stylesheets place the frame: a box measured before they load is not the fitted one
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")]
      .every((link) => link.sheet !== null)
  );
  // The frame's origin is opaque (no allow-same-origin): the page cannot read it, the test can.
  const frame = await (await serverFrame(page).elementHandle())?.contentFrame();
  if (!frame) throw new Error("no server frame");
  // A large frame is a document of its own that streams in: read once it is all parsed (the
  // browser's event: a page-side poll never runs in a frame that runs no script).
  await frame.waitForLoadState("domcontentloaded");
  await frame.waitForFunction(() => (document.body?.childElementCount ?? 0) > 0);
  return frame;
}

/** A Meta event of an 800 × 600 page. */
export const meta = (t: number) => metaEvent(t);

/** A full snapshot of a page whose body holds `body` as text node 4 (nothing when omitted). */
export const snapshot = (t: number, body?: string) =>
  pageSnapshot(t, body === undefined ? [] : [textNode(4, body)]);
