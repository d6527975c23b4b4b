// The SDK overhead benchmark's heavy page, of the corpus's largest kind (editormd-full): a markdown
// editor with a live preview re-rendered per keystroke, plus big inline styles with base64 fonts.
import { Buffer } from "node:buffer";
import { editorApp } from "./editor_app.ts";

/** How the page loads the SDK; absent for the unrecorded run. */
export interface PageSdk {
  /** URL of the classic script. */
  src: string;
  /** Options passed to `Playhead.init` (the benchmark passes `autoStart: false`). */
  options: Record<string, unknown>;
}

const WORDS = ("session replay recorder mutation snapshot preview editor markdown keystroke " +
  "render serialize buffer gzip ingest batch cursor scroll viewport layout style font outline " +
  "table column heading paragraph list item code block anchor link inline emphasis").split(" ");

/** Deterministic PRNG (mulberry32), so every run sees the same page. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A markdown document of about `chars` characters: sections of prose, lists, tables and code. */
export function seedMarkdown(chars: number, seed = 1): string {
  const rand = prng(seed);
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)];
  const words = (n: number) => Array.from({ length: n }, pick).join(" ");
  const sentence = () => {
    const w = words(6 + Math.floor(rand() * 10)).split(" ");
    w[1] = `**${w[1]}**`;
    w[3] = `*${w[3]}*`;
    w[5] = `\`${w[5]}\``;
    if (rand() < 0.3) w[7] = `[${w[7]}](#${pick()})`;
    return w.join(" ") + ".";
  };
  const parts: string[] = ["# Release notes and design journal", ""];
  let size = 0;
  for (let s = 1; size < chars; s++) {
    const section = [`## ${s}. ${words(3)}`, "", sentence() + " " + sentence(), sentence(), ""];
    section.push(...Array.from({ length: 4 }, () => `- ${sentence()}`), "");
    section.push(`### ${s}.1 ${words(2)}`, "", "| name | value | note |", "|---|---|---|");
    for (let r = 0; r < 5; r++) section.push(`| ${pick()} | ${r * s} | ${words(4)} |`);
    section.push("", "```js");
    for (let l = 0; l < 6; l++) {
      section.push(
        `const ${pick()}${l} = record(${l * s}, "${pick()}", { ${pick()}: [${s}, ${l}] });`,
      );
    }
    section.push("```", "", sentence() + " " + sentence() + " " + sentence(), "");
    size += section.join("\n").length;
    parts.push(...section);
  }
  return parts.join("\n");
}

/** Inline CSS: a theme of many rules and `fontKb` KB of base64 @font-face data (like reveal.js). */
function styles(fontKb: number): string {
  const rand = prng(7);
  const faces = ["Lato", "Lato Bold", "Source Sans Pro"].map((family) => {
    const bytes = Uint8Array.from({ length: (fontKb * 1024 * 3) / 4 / 3 }, () => rand() * 256);
    return `@font-face{font-family:"${family}";src:url(data:font/woff2;base64,${
      Buffer.from(bytes).toString("base64")
    }) format("woff2");}`;
  });
  const rules = Array.from({ length: 1500 }, (_, i) => {
    const hue = Math.floor(rand() * 360);
    return `.theme-${i % 50} .tok-${i}{color:hsl(${hue} 60% 40%);border-left:${
      i % 4
    }px solid hsl(${hue} 30% 80%);}`;
  });
  return `${faces.join("\n")}
body{margin:0;font:14px/1.5 system-ui,sans-serif;display:grid;grid-template-rows:auto 1fr auto;height:100vh}
#toolbar{display:flex;gap:4px;padding:4px;border-bottom:1px solid #ddd}
main{display:grid;grid-template-columns:200px 1fr 1fr;min-height:0}
body.toc-hidden main{grid-template-columns:0 1fr 1fr}
#toc{overflow:auto;margin:0;padding:4px 4px 4px 16px;font-size:12px}
#editor{font:13px/1.4 monospace;resize:none;border:0;border-right:1px solid #ddd;padding:8px}
#preview{overflow:auto;padding:8px 16px}
#preview table{border-collapse:collapse}#preview td,#preview th{border:1px solid #ccc;padding:2px 6px}
pre.prettyprint{background:#f6f8fa;padding:6px}.str{color:#080}.kwd{color:#008}.lit{color:#066}.pun{color:#660}
ol.linenums li.L1,ol.linenums li.L3,ol.linenums li.L5,ol.linenums li.L7,ol.linenums li.L9{background:#eee}
body.dark{background:#222;color:#ddd}body.dark pre.prettyprint{background:#333}
.dialog{position:fixed;inset:10% 20%;overflow:auto;background:#fff;border:1px solid #999;padding:16px;box-shadow:0 4px 24px #0004}
#status{padding:2px 8px;border-top:1px solid #ddd;font-size:12px}
${rules.join("\n")}`;
}

/**
 * The whole page; `markdownChars` sets the preview's size, so each keystroke's mutation size.
 * `head` is put where the SDK goes (bench/sdk/peers/ loads other recorders there).
 */
export function heavyPage(
  opts: { sdk?: PageSdk; head?: string; markdownChars: number; fontKb: number },
): string {
  const sdk = opts.sdk
    ? `<script src="${opts.sdk.src}"></script>
<script>window.ph = Playhead.init(${JSON.stringify(opts.sdk.options)});</script>`
    : opts.head ?? "";
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Markdown editor</title>
<script>
window.longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.longTasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask" });
</script>
${sdk}
<style>${styles(opts.fontKb)}</style></head>
<body class="theme-3">
<nav id="toolbar"><button id="bold">B</button><button id="italic">I</button>
<button id="heading">H</button><button id="toggle-toc">Outline</button>
<button id="theme">Theme</button><button id="help">Help</button></nav>
<main><ul id="toc"></ul><textarea id="editor" spellcheck="false">${
    esc(seedMarkdown(opts.markdownChars))
  }</textarea><div id="preview"></div></main>
<div id="status"></div>
<script type="text/markdown" id="help-source">${seedMarkdown(6000, 3)}</script>
<script>(${editorApp.toString()})();</script>
</body></html>`;
}
