// The replay benchmark's long text-heavy document: a generated documentation page (a table of
// contents and 120 sections of prose, inline code and links: about 8,000 text nodes), recorded with
// the real SDK in the SDK's browser harness while a reader scrolls it, filters the contents, opens
// long code samples and follows two links to other pages of the same size (each a rewrite of the
// whole article). Returns the events in the order the SDK sent them.
import type { RrwebEvent } from "@/bench/corpus_batches.ts";
import { closeIdleDatabases } from "@/tests/helpers/db.ts";
import { sdkPage, startHarness, waitFor, withPh } from "@/tests/e2e/sdk_harness.ts";

const SECTIONS = 120;
const PARAGRAPHS = 12;

const WORDS = ("session replay event batch snapshot mutation cursor viewport frame timeline " +
  "marker console ingest project organization keyframe decode worker stream scroll input " +
  "privacy mask block flush request retry storage partition query index cursor").split(" ");

/** A fixed-seed word stream, so every run records the same document. */
function words(seed: number) {
  let state = seed;
  return (count: number) =>
    Array.from({ length: count }, () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return WORDS[state % WORDS.length];
    }).join(" ");
}

function article(page: number): string {
  const next = words(page + 1);
  const sections: string[] = [];
  for (let s = 0; s < SECTIONS; s++) {
    const paragraphs: string[] = [];
    for (let p = 0; p < PARAGRAPHS; p++) {
      paragraphs.push(
        `<p>${next(14)} <code>${next(1)}()</code> ${next(10)} <a href="#s${(s + p) % SECTIONS}">${
          next(2)
        }</a> ${next(12)}.</p>`,
      );
    }
    const sample = Array.from({ length: 40 }, (_, i) => `${i + 1}  ${next(6)}`).join("\n");
    sections.push(
      `<section id="s${s}"><h2>${page}.${s + 1} ${next(3)}</h2>${paragraphs.join("")}` +
        `<details><summary>Example ${s + 1}</summary><pre>${sample}</pre></details></section>`,
    );
  }
  return sections.join("");
}

function toc(): string {
  const next = words(99);
  return Array.from(
    { length: SECTIONS },
    (_, s) => `<li><a href="#s${s}">${s + 1}. ${next(3)}</a></li>`,
  ).join("");
}

const STYLE = `<style>body{font:15px/1.5 sans-serif;margin:0;display:flex}
nav{width:260px;height:100vh;overflow:auto;position:sticky;top:0;border-right:1px solid #ddd}
main{flex:1;padding:0 32px;max-width:860px}code{background:#f3f3f3}
pre{background:#f7f7f7;padding:8px}li.hidden{display:none}</style>`;

const BODY = `${STYLE}<nav><input id="filter" placeholder="Filter"><ul id="toc">${toc()}</ul></nav>
<main id="article">${article(1)}</main>`;

/** In the page: filter the contents, and swap the article for another page of the docs. */
const SCRIPT = `
document.getElementById("filter").addEventListener("input", (e) => {
  for (const li of document.querySelectorAll("#toc li")) {
    li.classList.toggle("hidden", !li.textContent.includes(e.target.value));
  }
});
window.showPage = (html) => { document.getElementById("article").innerHTML = html; scrollTo(0, 0); };`;

/** Records the document being read (about 25 s); returns its events. */
export async function recordDocumentation(): Promise<RrwebEvent[]> {
  await using h = await startHarness();
  const project = await h.server.createProject();
  h.page("/docs", sdkPage(h, project.key, { flushInterval: 1_000 }, BODY, SCRIPT));
  const { page } = await h.context();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${h.pagesUrl}/docs`);
  await waitFor(() => withPh(page, (ph) => ph.state === "recording"), 10_000, "recording");
  for (const pageNumber of [1, 2, 3]) {
    if (pageNumber > 1) {
      await page.evaluate((html) =>
        (globalThis as unknown as {
          showPage(html: string): void;
        }).showPage(html), article(pageNumber));
    }
    // Read down the page, opening a code sample now and then.
    for (let step = 1; step <= 30; step++) {
      await page.mouse.wheel(0, 900);
      if (step % 6 === 0) await page.locator("main details:not([open]) summary").first().click();
      await page.waitForTimeout(100);
    }
    await page.fill("#filter", "");
    await page.locator("#filter").pressSequentially(WORDS[pageNumber], { delay: 80 });
  }
  await withPh(page, (ph) => ph.flush());
  await waitFor(() => h.ingests().length > 0 && h.ingests().every((r) => r.status === 204));
  await page.waitForTimeout(500); // a batch still in flight lands
  await page.context().close();
  return h.ingests().flatMap((r) => r.body.events as unknown as RrwebEvent[])
    .sort((a, b) => a.timestamp - b.timestamp);
}

/** Text nodes in a serialised node tree. */
function textNodes(node: { type: number; childNodes?: unknown[] }): number {
  const children = (node.childNodes ?? []) as { type: number }[];
  return (node.type === 3 ? 1 : 0) + children.reduce((n, c) => n + textNodes(c), 0);
}

if (import.meta.main) {
  const events = await recordDocumentation();
  const snapshot = events.find((e) => e.type === 2)!;
  const texts = textNodes((snapshot.data as { node: { type: number } }).node);
  const mb = JSON.stringify(events).length / 1e6;
  console.log(`${events.length} events, ${mb.toFixed(1)} MB, ${texts} text nodes at first`);
  await closeIdleDatabases();
}
