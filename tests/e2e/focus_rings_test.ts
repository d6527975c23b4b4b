// Keyboard walk of every dashboard page and the public link's page in Chromium: each control Tab
// reaches shows a visible focus ring (an outline or shadow that focus changed) and has an
// accessible name (docs/decisions.md "Player and keyboard"). The walk is bounded; it stops when
// focus comes back to where it started.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { PERSON, sharesWorld } from "@/tests/helpers/shares_world.ts";
import { trackedUserHref } from "@/page_state/tracked_user.ts";

/** More Tab stops than any page has; a page that needs more fails instead of looping. */
const MAX_STOPS = 120;

interface Stop {
  /** Tag, id, classes and name or href: which control it was. */
  what: string;
  ring: boolean;
  /** Playwright's aria snapshot of the element: role and accessible name. */
  aria: string;
}

/**
 * Each element's outline and box shadow before the walk, so a stop's ring is what focus changed:
 * a shadow an element always has is no focus ring.
 */
function noteRingsBefore(): void {
  const w = window as unknown as { ringsBefore: WeakMap<Element, string> };
  w.ringsBefore = new WeakMap();
  for (const node of document.querySelectorAll("*")) {
    const style = getComputedStyle(node);
    const outline = style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 1
      ? "none"
      : `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} ${style.outlineOffset}`;
    w.ringsBefore.set(node, `${outline} | ${style.boxShadow}`);
  }
}

/**
 * What focusing the element changed: its outline or box shadow, or its parent's for a visually
 * hidden native control (a chip around its checkbox). An element made during the walk is compared
 * with itself blurred, then focused again.
 */
function focusedStop(): Omit<Stop, "aria"> | null {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return null;
  const rings = (window as unknown as { ringsBefore: WeakMap<Element, string> }).ringsBefore;
  const ringOf = (node: Element) => {
    const style = getComputedStyle(node);
    const outline = style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 1
      ? "none"
      : `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} ${style.outlineOffset}`;
    return `${outline} | ${style.boxShadow}`;
  };
  const nodes = el.parentElement ? [el, el.parentElement] : [el];
  const focused = nodes.map(ringOf);
  let before = nodes.map((node) => rings.get(node));
  if (before.some((ring) => ring === undefined)) {
    el.blur();
    before = nodes.map(ringOf);
    el.focus();
  }
  // A transparent or tiny element's own ring is not seen (a chip's hidden checkbox).
  const seen = (node: Element) => {
    const style = getComputedStyle(node);
    const box = node.getBoundingClientRect();
    return style.opacity !== "0" && style.visibility !== "hidden" && box.width >= 2 &&
      box.height >= 2;
  };
  const ring = focused.some((now, i) =>
    now !== "none | none" && now !== before[i] && seen(nodes[i])
  );
  const classes = [...el.classList].map((c) => "." + c).join("");
  const key = el.getAttribute("name") ?? el.getAttribute("href") ?? el.textContent?.trim() ?? "";
  return {
    what: `${el.localName}${el.id ? "#" + el.id : ""}${classes}[${key.slice(0, 40)}]`,
    ring,
  };
}

async function walk(page: Page): Promise<Stop[]> {
  const stops: Stop[] = [];
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.evaluate(noteRingsBefore);
  for (let i = 0; i < MAX_STOPS; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(focusedStop);
    if (!stop) continue;
    if (stops.length > 0 && stop.what === stops[0].what) return stops;
    const aria = await page.locator(":focus").ariaSnapshot().catch(() => "");
    stops.push({ ...stop, aria });
  }
  throw new Error(`more than ${MAX_STOPS} Tab stops: ${stops.map((s) => s.what).join(" ")}`);
}

/**
 * `- button "Apply"`: a role and a quoted name (an unnamed control has none). A `<summary>` has
 * no ARIA role of its own (browsers announce it as a disclosure button): its text is its name.
 */
const NAMED = /^- '?[a-z]+ "[^"]+"/; // YAML quotes a line holding a colon
const named = (s: Stop) =>
  NAMED.test(s.aria) || (s.what.startsWith("summary") && /^- text: \S/.test(s.aria));

Deno.test("focus rings: every control on every page shows its focus and has a name", async (t) => {
  await using server = await startPagesServer();
  const w = await sharesWorld(server.t, server.url);
  const made = await w.share({ expiresInHours: 1 });
  assert.equal(made.res.status, 201);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = w.owner.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const pages = [
      ["sessions", "/sessions"],
      ["replay", `/replays/${w.sessionId}`],
      ["insights", "/insights"],
      ["users", "/users"],
      ["user", trackedUserHref(PERSON.userId)],
      ["project settings", `/projects/${w.project.id}/settings`],
      ["organization", "/settings/organization"],
      ["members", "/settings/organization/members"],
      ["profile", "/settings/profile"],
      ["public link", new URL(made.body.url).pathname],
    ] as const;
    for (const [label, path] of pages) {
      await t.step(label, async () => {
        await page.goto(`${server.url}${path}`);
        await page.waitForFunction(() =>
          [...document.querySelectorAll("fresh-island")]
            .every((island) => island.getAttribute("data-hydrated") === "true")
        );
        // A player's controls are enabled once its recording has loaded (a link's is cut in the
        // cut worker, which a loaded machine starts slowly).
        if (label === "replay" || label === "public link") {
          await page.locator("[data-waiting=false]").first().waitFor();
        }
        const stops = await walk(page);
        assert.ok(stops.length >= 2, `${label}: ${stops.length} Tab stops`);
        const unringed = stops.filter((s) => !s.ring).map((s) => s.what);
        assert.deepEqual(unringed, [], `${label}: no focus ring`);
        const unnamed = stops.filter((s) => !named(s)).map((s) => `${s.what} ${s.aria}`);
        assert.deepEqual(unnamed, [], `${label}: no accessible name`);
        await page.screenshot({
          path: await artifactPath(`focus-${label.replaceAll(" ", "-")}.png`),
        });
      });
    }
  } finally {
    await browser.close();
  }
});
