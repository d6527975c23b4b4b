import assert from "node:assert/strict";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { RecordingSanitizer } from "@/recording/sanitize.ts";
import { FRAME_PRELUDE, snapshotHtml, type SnapshotNode } from "./snapshot_html.ts";

const el = (
  tagName: string,
  attributes: Record<string, unknown> = {},
  childNodes: SnapshotNode[] = [],
  extra: Partial<SnapshotNode> = {},
): SnapshotNode => ({ type: 2, tagName, attributes, childNodes, ...extra });
const text = (textContent: string): SnapshotNode => ({ type: 3, textContent });
const doc = (...childNodes: SnapshotNode[]): SnapshotNode => ({ type: 0, childNodes });

/**
 * The snapshot cleaned by the player's rules, then written, as the server does; the prelude every
 * document gets (tested on its own) is left out.
 */
function html(root: SnapshotNode): string {
  new RecordingSanitizer().clean({ type: 2, data: { node: root } });
  return snapshotHtml(root).replace(FRAME_PRELUDE, "");
}

Deno.test("snapshot html: doctype, elements, void elements, text and comments in order", () => {
  const root = doc(
    { type: 1, name: "html" },
    el("html", { lang: "en" }, [
      el("head", {}, [el("meta", { charset: "utf-8" }), el("title", {}, [text("A & B")])]),
      el("body", {}, [el("p", { class: "x" }, [text("hi"), el("br")]), {
        type: 5,
        textContent: "note",
      }]),
    ]),
  );
  assert.equal(
    html(root),
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A &amp; B</title></head>' +
      '<body><p class="x">hi<br></p><!--note--></body></html>',
  );
});

Deno.test("snapshot html: text, attribute values and comments cannot break out of their place", () => {
  const root = doc(el("div", { title: `"><script>x()</script>`, "bad name": "1", 'q"': "2" }, [
    text("</div><script>alert(1)</script>"),
    { type: 5, textContent: "--><script>y()</script>" },
    { type: 5, textContent: "><script>z()</script>" },
  ]));
  assert.equal(
    html(root),
    '<div title="&quot;><script>x()</script>">' +
      "&lt;/div&gt;&lt;script&gt;alert(1)&lt;/script&gt;" +
      "<!--- -><script>y()</script>-->" +
      "<!-- ><script>z()</script>--></div>",
  );
});

Deno.test("snapshot html: _cssText becomes the style text, and a </style> in it stays inside", () => {
  const root = doc(
    el("link", { rel: "stylesheet", href: "https://x.test/a.css", _cssText: "a { color: red }" }),
    el("style", { _cssText: "b::after { content: '</style><script>z()</script>' }" }, [text("")]),
  );
  assert.equal(
    html(root),
    '<style rel="stylesheet" href="https://x.test/a.css">a { color: red }</style>' +
      "<style>b::after { content: '<\\/style><script>z()<\\/script>' }</style>",
  );
});

Deno.test("snapshot html: nothing that runs, loads a script or navigates is written", () => {
  const root = doc(
    el("script", { src: "https://evil.test/x.js" }, [text("alert(1)")]),
    el("img", { src: "a.png", onerror: "alert(1)" }),
    el("a", { href: "javascript:alert(1)" }, [text("a")]),
    el("meta", { "http-equiv": "refresh", content: "0;url=https://evil.test" }),
    el("base", { href: "https://evil.test/" }),
    el("form", { action: "https://evil.test/" }),
    el("iframe", { srcdoc: "<script>alert(1)</script>", src: "https://evil.test/" }, [doc()]),
    el("link", { rel: "modulepreload", href: "https://evil.test/m.js" }),
    el("plaintext", {}, [text("rest")]),
  );
  const out = html(root);
  assert.equal(
    out,
    '<noscript></noscript><img src="a.png"><a>a</a><meta content="0;url=https://evil.test">' +
      "<base><form></form><iframe></iframe>",
  );
});

Deno.test("snapshot html: rrweb's own attributes are applied as its rebuild applies them", () => {
  const root = doc(
    el("img", { src: "big.png", rr_dataURL: "data:image/png;base64,AAAA" }),
    el("canvas", { width: "10", rr_dataURL: "data:image/png;base64,BBBB" }),
    el("div", { style: "color: red", rr_width: "5px", rr_height: "6px", rr_scrollTop: 9 }),
    el("textarea", { value: "typed <text>" }),
    el("input", { type: "checkbox", checked: true, disabled: false }),
    el("x-host", {}, [el("span", {}, [text("in")], { isShadow: true }), text("out")], {
      isShadowHost: true,
    }),
    el("svg", { viewBox: "0 0 1 1" }, [el("linearGradient", { id: "g" }, [], { isSVG: true })], {
      isSVG: true,
    }),
  );
  assert.equal(
    html(root),
    '<img src="data:image/png;base64,AAAA"><canvas width="10"></canvas>' +
      '<div style="color: red; width: 5px; height: 6px"></div>' +
      "<textarea>typed &lt;text&gt;</textarea>" +
      '<input type="checkbox" checked="">' +
      '<x-host><template shadowrootmode="open"><span>in</span></template>out</x-host>' +
      '<svg viewBox="0 0 1 1"><linearGradient id="g"></linearGradient></svg>',
  );
});

/** Every element parse5 (the HTML standard's parser) builds from the written page. */
function parsedTags(page: string): string[] {
  const tags: string[] = [];
  const walk = (node: DefaultTreeAdapterMap["parentNode"]) => {
    for (const child of node.childNodes) {
      if ("tagName" in child) tags.push(child.tagName);
      if ("childNodes" in child) walk(child);
      if ("content" in child) walk(child.content);
    }
  };
  walk(parse(page));
  return tags;
}

Deno.test("snapshot html: raw text under svg and math cannot become markup", () => {
  const smuggled = "</style><img src=https://evil.test/svg.png><style>";
  const root = doc(el("html", {}, [el("body", {}, [
    el("svg", {}, [el("style", {}, [text(smuggled)], { isSVG: true })], { isSVG: true }),
    el("math", {}, [el("style", {}, [text(smuggled.replace("svg", "math"))])]),
    el("svg", {}, [el("g", {}, [el("style", { _cssText: smuggled }, [], { isSVG: true })], {
      isSVG: true,
    })], { isSVG: true }),
    el("svg", {}, [el("foreignObject", {}, [el("xmp", {}, [text(smuggled)])], { isSVG: true })], {
      isSVG: true,
    }),
    // Outside foreign content the raw text stays raw (and cannot end early).
    el("style", {}, [text("a > b { color: red } " + smuggled)]),
  ])]));
  const page = html(root);
  const tags = parsedTags(page);
  assert.ok(!tags.includes("img"), page);
  assert.equal(tags.filter((t) => t === "style").length, 4, page);
  // The svg stylesheet's text is the recorded text, as the parser decodes it.
  assert.match(page, /<svg><style>&lt;\/style&gt;&lt;img src=https:\/\/evil.test\/svg.png&gt;/);
  assert.match(page, /<style>a > b \{ color: red \} <\\\/style><img/);
});

Deno.test("snapshot html: the frame's policy and no-referrer open the document, after its doctype", () => {
  const root = doc(
    { type: 5, textContent: "before" },
    { type: 1, name: "html" },
    el("html", {}, [
      el("head", {}, [el("meta", { name: "referrer", content: "unsafe-url" })]),
      el(
        "body",
        {},
        [el("img", { src: "https://cdn.test/a.png", referrerpolicy: "unsafe-url" })],
      ),
    ]),
  );
  new RecordingSanitizer().clean({ type: 2, data: { node: root } });
  const page = snapshotHtml(root);
  assert.ok(page.startsWith(`<!--before--><!DOCTYPE html>${FRAME_PRELUDE}<html>`), page);
  assert.match(
    FRAME_PRELUDE,
    /^<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src \* data: blob:;.* object-src 'none'; frame-src 'none';.*"><meta name="referrer" content="no-referrer">$/,
  );
  // The recording's own referrer policies are gone.
  assert.ok(
    page.endsWith(
      '<head><meta content="unsafe-url"></head><body><img src="https://cdn.test/a.png"></body></html>',
    ),
    page,
  );
  // The parser sees the policy as the head's first element, ahead of the recorded markup.
  const tags = parsedTags(page);
  assert.deepEqual(tags.slice(0, 4), ["html", "head", "meta", "meta"]);
});
