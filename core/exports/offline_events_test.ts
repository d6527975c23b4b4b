import assert from "node:assert/strict";
import { offlineCss, offlineEvent } from "./offline_events.ts";

Deno.test("export: a recording's remote addresses are emptied, data: and #fragments kept", () => {
  const snapshot = offlineEvent({
    type: 2,
    timestamp: 1,
    data: {
      node: {
        type: 0,
        childNodes: [
          {
            type: 2,
            tagName: "img",
            attributes: { src: "https://cdn.test/a.png", alt: "https://keep.test/" },
          },
          {
            type: 2,
            tagName: "img",
            attributes: { src: "data:image/png;base64,AAAA", srcset: "b.png 2x" },
          },
          { type: 2, tagName: "use", attributes: { href: "#icon" } },
          {
            type: 2,
            tagName: "link",
            attributes: { href: "/s.css", _cssText: "a{background:url(/x.png)}" },
          },
          {
            type: 2,
            tagName: "div",
            attributes: { style: "background: url('https://cdn.test/b.png')" },
          },
          {
            type: 3,
            textContent:
              "@import url(https://f.test/f.css); b{background:url(data:image/gif;base64,R0)}",
            isStyle: true,
          },
          { type: 3, textContent: "see https://shop.test/ for more" },
        ],
      },
    },
  });
  const nodes = (snapshot.data as {
    node: { childNodes: { attributes?: Record<string, string>; textContent?: string }[] };
  }).node.childNodes;
  assert.equal(nodes[0].attributes!.src, "");
  assert.equal(nodes[0].attributes!.alt, "https://keep.test/");
  assert.equal(nodes[1].attributes!.src, "data:image/png;base64,AAAA");
  assert.equal(nodes[1].attributes!.srcset, "");
  assert.equal(nodes[2].attributes!.href, "#icon");
  assert.equal(nodes[3].attributes!.href, "");
  assert.equal(nodes[3].attributes!._cssText, "a{background:url(about:invalid)}");
  assert.equal(nodes[4].attributes!.style, "background: url(about:invalid)");
  assert.equal(nodes[5].textContent, " b{background:url(data:image/gif;base64,R0)}");
  assert.equal(nodes[6].textContent, "see https://shop.test/ for more");

  const mutation = offlineEvent({
    type: 3,
    timestamp: 2,
    data: {
      source: 0,
      adds: [{
        parentId: 1,
        node: { type: 2, tagName: "img", attributes: { src: "//cdn.test/c.png" } },
      }],
      attributes: [{
        id: 7,
        attributes: {
          src: "https://cdn.test/d.png",
          class: "x",
          style: { background: "url(/e.png)" },
        },
      }],
      texts: [],
      removes: [],
    },
  });
  const data = mutation.data as {
    adds: { node: { attributes: Record<string, string> } }[];
    attributes: { attributes: Record<string, unknown> }[];
  };
  assert.equal(data.adds[0].node.attributes.src, "");
  assert.equal(data.attributes[0].attributes.src, "");
  assert.equal(data.attributes[0].attributes.class, "x");
  assert.deepEqual(data.attributes[0].attributes.style, { background: "url(about:invalid)" });
  assert.equal(offlineCss("a{color:red}"), "a{color:red}");
});
