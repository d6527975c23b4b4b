// The scripted interaction of the SDK overhead benchmark: cycles of typing, scrolling and clicking
// on the heavy editor page. The count of cycles is fixed per benchmark, so every run does equal work.
import type { Page } from "playwright-core";

export interface Plan {
  /** Wall time the unrecorded calibration run spends, which sets the count of cycles. */
  seconds: number;
  /** Characters typed per cycle, each one re-rendering the preview. */
  charsPerCycle: number;
  /** Pause between keystrokes, as a person types. */
  keyDelayMs: number;
  /** Wheel steps per scroll gesture. */
  wheelSteps: number;
}

export const FULL_PLAN: Plan = { seconds: 30, charsPerCycle: 10, keyDelayMs: 90, wheelSteps: 4 };
export const SMOKE_PLAN: Plan = { seconds: 0, charsPerCycle: 4, keyDelayMs: 50, wheelSteps: 2 };

const PHRASE = "Recorded *sessions* replay `every` keystroke and **scroll** of the editor. ";

/** Runs cycles until `plan.seconds` have passed; returns how many it ran. */
export async function calibrate(page: Page, plan: Plan): Promise<number> {
  const deadline = performance.now() + plan.seconds * 1000;
  let cycles = 0;
  while (performance.now() < deadline) await cycle(page, plan, cycles++);
  return cycles;
}

/** Runs exactly `cycles` cycles; slow pages take longer but do the same work. */
export async function interact(page: Page, plan: Plan, cycles: number): Promise<void> {
  for (let i = 0; i < cycles; i++) await cycle(page, plan, i);
}

/** One cycle: type somewhere in the document, scroll both panes, use the toolbar. */
export async function cycle(page: Page, plan: Plan, n: number): Promise<void> {
  const editor = (await page.locator("#editor").boundingBox())!;
  const preview = (await page.locator("#preview").boundingBox())!;
  await page.click("#editor");
  await page.evaluate((fraction) => {
    const el = document.getElementById("editor") as HTMLTextAreaElement;
    const at = el.value.indexOf("\n", Math.floor(el.value.length * fraction));
    el.setSelectionRange(at, at);
  }, (n * 0.618) % 1);
  await page.keyboard.press("Enter");
  const from = (n * 7) % PHRASE.length;
  const text = PHRASE.repeat(2).slice(from, from + plan.charsPerCycle);
  await page.keyboard.type(text, { delay: plan.keyDelayMs });
  await page.click("#bold");
  // Read the preview, then scroll the editor (the preview follows it).
  await page.mouse.move(preview.x + preview.width / 2, preview.y + preview.height / 2, {
    steps: 8,
  });
  for (let i = 0; i < plan.wheelSteps; i++) {
    await page.mouse.wheel(0, i % 2 ? -200 : 500);
    await page.waitForTimeout(80);
  }
  await page.mouse.move(editor.x + editor.width / 2, editor.y + editor.height / 2, { steps: 8 });
  for (let i = 0; i < plan.wheelSteps; i++) {
    await page.mouse.wheel(0, i % 2 ? -300 : 500);
    await page.waitForTimeout(80);
  }
  if (n % 3 === 2) {
    await page.click("#help");
    await page.waitForTimeout(300);
    await page.click("#close");
  } else {
    const toggle = n % 3 === 0 ? "#toggle-toc" : "#theme";
    await page.click(toggle);
    await page.waitForTimeout(150);
    await page.click(toggle);
  }
  await page.waitForTimeout(150);
}
