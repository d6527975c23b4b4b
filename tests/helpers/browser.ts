// Debian's Chromium, launched the one way this machine allows: headless, no sandbox (root), and
// no background networking (the network is closed), with a fresh profile each time.
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A new browser; playwright gives every launch its own temporary user-data dir. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Where a browser test saves a screenshot: the git-ignored .scratch/e2e/ (looked at, never committed). */
export async function artifactPath(name: string): Promise<string> {
  const dir = new URL("../../.scratch/e2e/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  return new URL(name, dir).pathname;
}

/**
 * A page of a new 1280×900 context signed in with `cookie` ("name=value", as the test helpers give
 * it) on `url`, and the errors its scripts throw (a test asserts there are none).
 */
export async function signedInPage(browser: Browser, url: string, cookie: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const at = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors };
}
