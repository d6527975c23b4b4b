// The static documentation reference page: one long article (prose, code, tables, notes) with a
// sidebar of anchor links and a search box that filters the sidebar — the only script on the page.
import { LONGTASK_OBSERVER } from "./observer.ts";

const WORDS = ("recorder session replay snapshot mutation option endpoint request header batch " +
  "browser privacy mask block element attribute event stream buffer upload retry network " +
  "console error project key dashboard query filter export token").split(" ");

/** Deterministic words (a linear congruential generator), so every run sees the same page. */
function words(seed: number, n: number): string {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return WORDS[s % WORDS.length];
  }).join(" ");
}

const SECTIONS = 30;
const title = (i: number) => `${i + 1}. ${words(i * 7 + 1, 3)}`;

function section(i: number): string {
  const para = (k: number) =>
    `<p>${words(i * 31 + k, 60)}. <a href="#s${(i + 5) % SECTIONS}">${words(k, 2)}</a> ${
      words(i + k * 13, 40)
    }.</p>`;
  const code = Array.from(
    { length: 8 },
    (_, l) =>
      `const ${words(i + l, 1)}${l} = await client.${words(i * 3 + l, 1)}({ id: ${i * 10 + l} });`,
  )
    .join("\n");
  const rows = Array.from(
    { length: 6 },
    (_, r) =>
      `<tr><td><code>${words(i * 5 + r, 1)}</code></td><td>${words(r + i, 1)}</td><td>${
        words(i * 11 + r, 9)
      }</td></tr>`,
  ).join("");
  return `<section id="s${i}"><h2>${title(i)}</h2>${para(1)}${para(2)}
<pre><code>${code}</code></pre>${para(3)}
<table><thead><tr><th>name</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>
<details><summary>Note on ${words(i, 2)}</summary>${para(4)}</details>${para(5)}</section>`;
}

const STYLE =
  `body{margin:0;font:15px/1.6 Georgia,serif;display:grid;grid-template-columns:260px 1fr;
color:#222}aside{position:sticky;top:0;height:100vh;overflow:auto;background:#f6f6f4;
padding:12px;font:13px/1.4 system-ui,sans-serif}aside input{width:100%;padding:6px;box-sizing:border-box}
aside a{display:block;padding:3px 0;color:#345}aside a[hidden]{display:none}
article{max-width:760px;padding:16px 32px}pre{background:#f4f4f4;padding:10px;overflow:auto;
font-size:13px}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px}
details{background:#fffbe6;padding:6px 10px;margin:8px 0}`;

/** Filters the sidebar's links by the search box (runs in the browser via toString()). */
function searchBox(): void {
  const input = document.getElementById("search") as HTMLInputElement;
  input.addEventListener("input", () => {
    const q = input.value.toLowerCase();
    for (const a of document.querySelectorAll<HTMLAnchorElement>("aside a")) {
      a.hidden = !a.textContent!.toLowerCase().includes(q);
    }
  });
}

/** The whole page; `head` holds the recorder's scripts (empty for the unrecorded run). */
export function docsPage(head: string): string {
  const toc = Array.from({ length: SECTIONS }, (_, i) => `<a href="#s${i}">${title(i)}</a>`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>SDK guide</title>
${LONGTASK_OBSERVER}
${head}
<style>${STYLE}</style></head>
<body><aside><input id="search" placeholder="Search the guide">${toc.join("")}</aside>
<article><h1>Capture SDK guide</h1>${
    Array.from({ length: SECTIONS }, (_, i) => section(i)).join("\n")
  }</article>
<script>(${searchBox.toString()})();</script>
</body></html>`;
}
