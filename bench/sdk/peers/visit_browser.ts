// The browser of one visit: Chromium on a fresh profile at the reference pages' viewport, its tab
// collecting the page's errors; disposing it closes the browser and removes the profile.
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@/tests/helpers/browser.ts";

export interface VisitBrowser extends AsyncDisposable {
  context: BrowserContext;
  tab: Page;
  pageErrors: string[];
}

export async function visitBrowser(prefix: string): Promise<VisitBrowser> {
  const profile = await Deno.makeTempDir({ prefix });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const tab = context.pages()[0] ?? await context.newPage();
  const pageErrors: string[] = [];
  tab.on("pageerror", (e) => pageErrors.push(e.message));
  return {
    context,
    tab,
    pageErrors,
    async [Symbol.asyncDispose]() {
      await context.close().catch(() => {});
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}
