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
