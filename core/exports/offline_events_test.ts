import assert from "node:assert/strict";
import { AddressRewriter, isLocal, offlineCss, offlineEvent } from "./offline_events.ts";

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

Deno.test("export: image-set() strings and every srcset candidate are emptied like other remote addresses", () => {
  assert.equal(
    offlineCss(
      'a{background:image-set("https://cdn.test/a.png" 1x type("image/png"), ' +
        "'b.png' 2x, url(https://cdn.test/c.png) 3x, \"data:image/gif;base64,R0\" 4x)}",
    ),
    'a{background:image-set("about:invalid" 1x type("image/png"), ' +
      "'about:invalid' 2x, url(about:invalid) 3x, \"data:image/gif;base64,R0\" 4x)}",
  );
  assert.equal(
    offlineCss('b{background:-webkit-image-set("https://cdn.test/d.png" 1x)}'),
    'b{background:-webkit-image-set("about:invalid" 1x)}',
  );
  const img = offlineEvent({
    type: 2,
    timestamp: 1,
    data: {
      node: {
        type: 2,
        tagName: "img",
        attributes: {
          srcset: "data:image/png;base64,AAAA 1x, https://cdn.test/e.png 2x",
          imagesrcset: "data:image/png;base64,BB,CC 1x",
        },
      },
    },
  });
  assert.deepEqual((img.data as { node: { attributes: unknown } }).node.attributes, {
    srcset: "",
    imagesrcset: "data:image/png;base64,BB,CC 1x",
  });
});

Deno.test("export: an image's place gets what `image` gives: an <img>'s src (known by id in a later change), one srcset candidate with its descriptor, CSS url() but no font", () => {
  const given: string[] = [];
  const rewriter = new AddressRewriter(isLocal, (address) => {
    given.push(address);
    return address.endsWith(".png") ? `data:image/png;base64,${address.length}` : null;
  });
  const node = (id: number, tagName: string, attributes: Record<string, string>) => ({
    type: 2,
    id,
    tagName,
    attributes,
    childNodes: [],
  });
  const snapshot = (childNodes: unknown[]) => ({
    type: 2,
    timestamp: 1,
    data: { node: { type: 0, id: 1, childNodes } },
  });
  const change = (id: number, src: string) => ({
    type: 3,
    timestamp: 2,
    data: {
      source: 0,
      texts: [],
      removes: [],
      adds: [],
      attributes: [{ id, attributes: { src } }],
    },
  });
  const first = rewriter.event(snapshot([
    node(5, "img", { src: "https://cdn.test/a.png", srcset: "s.png 1x, m.png 2x, l.png 3x" }),
    node(6, "script", { src: "https://cdn.test/app.js" }),
    node(7, "video", { poster: "https://cdn.test/p.png" }),
    node(8, "source", { srcset: "w1.png 400w, w2.png 1600w, w3.png 3200w" }),
    {
      type: 3,
      textContent: '@font-face{src:url(f.woff)}a{background:url("b.png")}',
      isStyle: true,
    },
  ]));
  assert.deepEqual(
    JSON.parse(JSON.stringify(first.data)).node.childNodes.map((n: { attributes?: unknown }) =>
      n.attributes
    ),
    [
      { src: "data:image/png;base64,22", srcset: "data:image/png;base64,5 2x" },
      { src: "" },
      { poster: "data:image/png;base64,22" },
      { srcset: "data:image/png;base64,6 1600w" },
      undefined,
    ],
  );
  assert.equal(
    (first.data as { node: { childNodes: { textContent?: string }[] } }).node.childNodes[4]
      .textContent,
    '@font-face{src:url(about:invalid)}a{background:url("data:image/png;base64,5")}',
  );
  assert.deepEqual(given, [
    "https://cdn.test/a.png",
    "m.png",
    "https://cdn.test/p.png",
    "w2.png",
    "b.png",
  ]);
  // A later change of node 5's src is an image's; once a new snapshot makes 5 a <div>, it is not.
  const src = (event: { data: unknown }) =>
    (event.data as { attributes: { attributes: { src: string } }[] }).attributes[0].attributes.src;
  assert.equal(src(rewriter.event(change(5, "c.png"))), "data:image/png;base64,5");
  rewriter.event(snapshot([node(5, "div", {})]));
  assert.equal(src(rewriter.event(change(5, "c.png"))), "");
});
