// The scripted visit of each reference page: a fixed list of steps, one per slot of time, so every
// recorder's visit does the same clicks, typing, scrolling and navigation at the same moments (a
// step that overruns its slot delays the next; the visit's length is then measured, not assumed).
import type { Page } from "playwright-core";
import { cycle, FULL_PLAN } from "@/bench/sdk/interaction.ts";

/** One step; `n` is the count of times the visit's list was gone through before it. */
export type Step = (page: Page, n: number) => Promise<void>;

export interface Visit {
  /** Milliseconds each step is given. */
  slotMs: number;
  steps: Step[];
}

const wheel = async (page: Page, dy: number, times: number) => {
  for (let i = 0; i < times; i++) {
    await page.mouse.wheel(0, dy);
    await page.waitForTimeout(120);
  }
};
const typeInto = async (page: Page, selector: string, text: string) => {
  await page.click(selector);
  await page.keyboard.type(text, { delay: 110 });
};

/** Route changes, re-sorted tables, a filter box, a form, and the chart ticking throughout. */
const DASHBOARD: Visit = {
  slotMs: 2_500,
  steps: [
    (p) => p.click("#nav a[data-route=orders]"),
    (p) => p.click("#orders th[data-key=amount]"),
    (p) => p.click("#orders th[data-key=amount]"),
    async (p) => {
      await p.mouse.move(700, 400, { steps: 10 });
      await wheel(p, 400, 4);
    },
    (p) => p.click("#orders th[data-key=date]"),
    (p) => p.click("#nav a[data-route=customers]"),
    (p) => typeInto(p, "#filter", "ann"),
    async (p) => {
      for (let i = 0; i < 3; i++) await p.keyboard.press("Backspace", { delay: 110 });
    },
    (p) => p.click("#customers th[data-key=orders]"),
    (p) => p.click("#nav a[data-route=settings]"),
    (p) => typeInto(p, "#team", "Platform team"),
    async (p) => {
      await typeInto(p, "#email", "ops@example.com");
      await p.selectOption("#tz", "Europe/Paris");
    },
    async (p) => {
      await typeInto(p, "#notes", "Weekly digest");
      await p.click("#weekly");
      await p.click("#save");
    },
    (p) => p.click("#nav a[data-route=overview]"),
    (p) => p.mouse.move(250, 80, { steps: 20 }).then(() => p.mouse.move(780, 110, { steps: 20 })),
    async (p) => {
      await wheel(p, 300, 3);
      await wheel(p, -300, 3);
    },
  ],
};

/** Reading: scrolling, the sidebar's anchor links, a note opened, text selected, a search. */
const DOCS: Visit = {
  slotMs: 2_500,
  steps: [
    async (p) => {
      await p.mouse.move(700, 400, { steps: 5 });
      await wheel(p, 500, 5);
    },
    (p) => p.mouse.move(400, 300, { steps: 15 }).then(() => p.mouse.move(900, 500, { steps: 15 })),
    (p, n) => p.click(`aside a[href="#s${(n * 7 + 5) % 30}"]`),
    (p) => wheel(p, 400, 3),
    (p, n) => p.click(`#s${(n * 7 + 5) % 30} summary`),
    async (p, n) => {
      const box = (await p.locator(`#s${(n * 7 + 5) % 30} p`).first().boundingBox())!;
      await p.mouse.move(box.x + 5, box.y + 5);
      await p.mouse.down();
      await p.mouse.move(box.x + box.width - 5, box.y + 40, { steps: 10 });
      await p.mouse.up();
    },
    (p) => typeInto(p, "#search", "snap"),
    async (p) => {
      for (let i = 0; i < 4; i++) await p.keyboard.press("Backspace", { delay: 110 });
    },
    (p, n) => p.click(`aside a[href="#s${(n * 11 + 12) % 30}"]`),
    (p) => wheel(p, -400, 3),
    (p, n) => p.locator(`#s${(n * 11 + 12) % 30} p a`).first().click(),
    (p) => wheel(p, 600, 4),
  ],
};

/** The editor's cycle of bench:sdk (typing that re-renders the preview, scrolling, the toolbar). */
const HEAVY: Visit = {
  slotMs: 6_000,
  steps: [(p, n) => cycle(p, FULL_PLAN, n)],
};

export const VISITS: Record<string, Visit> = { dashboard: DASHBOARD, docs: DOCS, heavy: HEAVY };

/**
 * Runs `count` steps of `visit` (cycling through its list), each at the start of its slot;
 * `between` runs after each step (the heap samples at whole minutes); failed steps are added to
 * `failures`.
 */
export async function runVisit(
  page: Page,
  visit: Visit,
  count: number,
  between: (elapsedMs: number) => Promise<void>,
  failures: string[],
): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const slotStart = start + i * visit.slotMs;
    const wait = slotStart - performance.now();
    if (wait > 0) await page.waitForTimeout(wait);
    // A step that fails (a click that timed out on a starved page) is reported, not fatal: the
    // other recorders' visits of a long run still count.
    await visit.steps[i % visit.steps.length](page, Math.floor(i / visit.steps.length))
      .catch((e: Error) => failures.push(`step ${i}: ${e.message.split("\n")[0]}`));
    await between(performance.now() - start);
  }
  const end = start + count * visit.slotMs;
  if (end > performance.now()) await page.waitForTimeout(end - performance.now());
  await between(performance.now() - start);
  return performance.now() - start;
}
