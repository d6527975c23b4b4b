import assert from "node:assert/strict";
import { RecordingSanitizer } from "./sanitize.ts";

const element = (
  id: number,
  tagName: string,
  attributes: Record<string, unknown>,
  childNodes = [],
) => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});

Deno.test("sanitize: a snapshot loses scripts, handlers, script URLs and navigating attributes", () => {
  const snapshot = {
    type: 2,
    timestamp: 1,
    data: {
      node: {
        type: 0,
        childNodes: [
          element(
            1,
            "script",
            { src: "https://evil.test/x.js" },
            [{ type: 3, textContent: "alert(1)" }] as never,
          ),
          element(2, "img", { src: "a.png", onerror: "alert(1)", ONLOAD: "x()" }),
          element(3, "a", { href: " javascript:alert(1)", title: "keep" }),
          element(4, "meta", { "http-equiv": "refresh", content: "0;url=https://evil.test" }),
          element(5, "base", { href: "https://evil.test/" }),
          element(6, "form", { action: "https://evil.test/steal", method: "post" }),
          element(7, "iframe", { srcdoc: "<script>alert(1)</script>", title: "frame" }),
          element(8, "button", { formaction: "https://evil.test" }),
          element(9, "a", { href: "https://fine.test/" }),
          element(10, "a", { href: "\u0001 java\tscr\nipt:alert(1)" }),
        ],
      },
    },
  };
  new RecordingSanitizer().clean(snapshot);
  const [script, img, a, meta, base, form, iframe, button, link, split] =
    snapshot.data.node.childNodes;
  assert.deepEqual(script, element(1, "noscript", {}));
  assert.deepEqual(img.attributes, { src: "a.png" });
  assert.deepEqual(a.attributes, { title: "keep" });
  assert.deepEqual(meta.attributes, { content: "0;url=https://evil.test" });
  assert.deepEqual(base.attributes, {});
  assert.deepEqual(form.attributes, { method: "post" });
  assert.deepEqual(iframe.attributes, { title: "frame" });
  assert.deepEqual(button.attributes, {});
  assert.deepEqual(link.attributes, { href: "https://fine.test/" });
  assert.deepEqual(split.attributes, {});
});

Deno.test("sanitize: added nodes and attribute changes are cleaned by their element's tag", () => {
  const sanitizer = new RecordingSanitizer();
  sanitizer.clean({ type: 2, data: { node: { type: 0, childNodes: [element(1, "base", {})] } } });
  const mutation = {
    type: 3,
    data: {
      source: 0,
      adds: [{ parentId: 1, node: element(2, "form", { action: "/x", onsubmit: "go()" }) }],
      attributes: [
        { id: 1, attributes: { href: "https://evil.test/" } },
        { id: 2, attributes: { action: "https://evil.test/", class: "a" } },
        { id: 99, attributes: { onclick: "x()", href: "javascript:void(0)", title: "t" } },
      ],
      texts: [],
      removes: [],
    },
  };
  sanitizer.clean(mutation);
  assert.deepEqual(mutation.data.adds[0].node.attributes, {});
  assert.deepEqual(mutation.data.attributes.map((a) => a.attributes), [{}, { class: "a" }, {
    title: "t",
  }]);
});

Deno.test("sanitize: other events pass untouched", () => {
  const event = { type: 3, data: { source: 1, positions: [{ x: 1, y: 2, id: 3, timeOffset: 0 }] } };
  const copy = structuredClone(event);
  assert.deepEqual(new RecordingSanitizer().clean(event), copy);
});

Deno.test("sanitize: frames, objects and embeds load nothing; no recorded referrer policy stays", () => {
  const remote = "https://elsewhere.test/doc";
  const snapshot = {
    type: 2,
    timestamp: 1,
    data: {
      node: {
        type: 0,
        childNodes: [
          element(1, "iframe", { src: remote, width: "300", height: "200", class: "ad" }),
          element(2, "object", { data: remote, type: "text/html", width: "300", height: "100" }),
          element(3, "embed", { src: remote, width: "320", height: "50" }),
          element(4, "img", { src: "https://cdn.test/a.png", referrerpolicy: "unsafe-url" }),
          element(5, "meta", { name: " Referrer ", content: "unsafe-url" }),
          element(6, "meta", { name: "description", content: "kept" }),
          element(7, "link", { rel: "stylesheet", href: "https://cdn.test/a.css" }),
          element(8, "a", { href: "https://fine.test/", ping: remote, referrerPolicy: "origin" }),
        ],
      },
    },
  };
  const sanitizer = new RecordingSanitizer();
  sanitizer.clean(snapshot);
  assert.deepEqual(snapshot.data.node.childNodes.map((n) => [n.tagName, n.attributes]), [
    ["iframe", { width: "300", height: "200", class: "ad" }],
    ["object", { type: "text/html", width: "300", height: "100" }],
    ["object", { width: "320", height: "50" }],
    ["img", { src: "https://cdn.test/a.png" }],
    ["meta", { content: "unsafe-url" }],
    ["meta", { name: "description", content: "kept" }],
    ["link", { rel: "stylesheet", href: "https://cdn.test/a.css" }],
    ["a", { href: "https://fine.test/" }],
  ]);
  // Later attribute changes are judged by the element they land on.
  const mutation = {
    type: 3,
    timestamp: 2,
    data: {
      source: 0,
      adds: [{ node: element(9, "embed", { src: remote }) }],
      attributes: [
        { id: 1, attributes: { src: remote } },
        { id: 3, attributes: { src: remote, width: "10" } },
        { id: 4, attributes: { referrerpolicy: "unsafe-url", alt: "a" } },
        { id: 6, attributes: { name: "referrer" } },
      ],
    },
  };
  sanitizer.clean(mutation);
  assert.deepEqual(mutation.data.adds[0].node, element(9, "object", {}));
  assert.deepEqual(mutation.data.attributes.map((a) => a.attributes), [
    {},
    { width: "10" },
    { alt: "a" },
    {},
  ]);
});

Deno.test("sanitize: an element named like a property every object has (constructor, __proto__) is cleaned like any other", () => {
  const snapshot = {
    type: 2,
    timestamp: 1,
    data: {
      node: {
        type: 0,
        childNodes: ["constructor", "toString", "__proto__", "hasOwnProperty"].map((tag, i) =>
          element(i + 1, tag, { class: "kept", onclick: "alert(1)", href: "javascript:x()" })
        ),
      },
    },
  };
  new RecordingSanitizer().clean(snapshot);
  assert.deepEqual(
    snapshot.data.node.childNodes.map((n) => n.attributes),
    Array(4).fill({ class: "kept" }),
  );
});
