// The scripted interaction of the SDK overhead benchmark: a fixed plan of typing, scrolling and
// clicking on the heavy editor page, the same work whether the page is recorded or not.
import type { Page } from "playwright-core";

export interface Plan {
  cycles: number;
  /** Characters typed per cycle, each one re-rendering the preview. */
  charsPerCycle: number;
  /** Pause between keystrokes, as a person types. */
  keyDelayMs: number;
  /** Wheel steps per scroll gesture. */
  wheelSteps: number;
}

/** About 30 s of interaction on an unrecorded page on our 2-core bench machine. */
export const FULL_PLAN: Plan = { cycles: 5, charsPerCycle: 24, keyDelayMs: 90, wheelSteps: 8 };
/** A few seconds, for CI. */
export const SMOKE_PLAN: Plan = { cycles: 1, charsPerCycle: 6, keyDelayMs: 50, wheelSteps: 2 };

const PHRASE = "Recorded *sessions* replay `every` keystroke and **scroll** of the editor. ";

/** Runs the plan; every step waits for the page to take the input, so slow pages take longer. */
export async function interact(page: Page, plan: Plan): Promise<void> {
  const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
  const editor = await box("#editor");
  const preview = await box("#preview");
  for (let cycle = 0; cycle < plan.cycles; cycle++) {
    // Type somewhere new in the document each cycle.
    await page.click("#editor");
    await page.evaluate((fraction) => {
      const el = document.getElementById("editor") as HTMLTextAreaElement;
      const at = el.value.indexOf("\n", Math.floor(el.value.length * fraction));
      el.setSelectionRange(at, at);
    }, (cycle + 0.5) / plan.cycles);
    await page.keyboard.press("Enter");
    const text = PHRASE.repeat(4).slice(cycle * 7, cycle * 7 + plan.charsPerCycle);
    await page.keyboard.type(text, { delay: plan.keyDelayMs });
    await page.click("#bold");
    await page.keyboard.type("x", { delay: plan.keyDelayMs });
    // Read the preview, then scroll the editor (the preview follows it).
    await page.mouse.move(preview.x + preview.width / 2, preview.y + preview.height / 2);
    for (let i = 0; i < plan.wheelSteps; i++) {
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(80);
    }
    await page.mouse.move(editor.x + editor.width / 2, editor.y + editor.height / 2, { steps: 12 });
    for (let i = 0; i < plan.wheelSteps; i++) {
      await page.mouse.wheel(0, i % 2 ? -300 : 500);
      await page.waitForTimeout(80);
    }
    // Toolbar: outline and theme toggles, the help dialog.
    for (const id of ["#toggle-toc", "#theme", "#toggle-toc", "#theme"]) {
      await page.click(id);
      await page.waitForTimeout(150);
    }
    await page.click("#help");
    await page.waitForTimeout(300);
    await page.mouse.move(preview.x + 40, preview.y + 40, { steps: 10 });
    await page.click("#close");
    await page.waitForTimeout(300);
  }
}
