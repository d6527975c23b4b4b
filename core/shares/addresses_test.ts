import assert from "node:assert/strict";
import type { RecordedEvent } from "@/recording/decode.ts";
import { markerWithPageAddress, pageAddress, sharedEvent, withPageAddresses } from "./addresses.ts";

const RESET = "https://ada:pw@shop.test/reset?email=ada%40example.test&reset_token=RT-1#step2";

Deno.test("addresses: a page's address is its origin and path", () => {
  assert.equal(pageAddress(RESET), "https://shop.test/reset");
  assert.equal(pageAddress("https://shop.test"), "https://shop.test/");
  assert.equal(pageAddress("not an address"), "");
  assert.deepEqual(markerWithPageAddress({ url: RESET, pathname: "/reset" }), {
    url: "https://shop.test/reset",
    pathname: "/reset",
  });
  assert.deepEqual(markerWithPageAddress({ selector: "a" }), { selector: "a" });
});

Deno.test("addresses: the Meta's href and a url event's url are cut, nothing else", () => {
  const meta = withPageAddresses({
    type: 4,
    timestamp: 1,
    data: { href: RESET, width: 1, height: 1 },
  });
  assert.deepEqual(meta.data, { href: "https://shop.test/reset", width: 1, height: 1 });
  const url = withPageAddresses({
    type: 5,
    timestamp: 1,
    data: { tag: "service:url", payload: { url: RESET, pathname: "/reset" } },
  });
  assert.deepEqual(url.data, {
    tag: "service:url",
    payload: { url: "https://shop.test/reset", pathname: "/reset" },
  });
  const move: RecordedEvent = { type: 3, timestamp: 1, data: { source: 1, positions: [] } };
  assert.equal(withPageAddresses(move), move);
});

Deno.test("addresses: a link's events keep absolute addresses and drop relative ones", () => {
  const node = (attributes: Record<string, string>) => ({ type: 2, tagName: "img", attributes });
  const event = sharedEvent({
    type: 2,
    timestamp: 1,
    data: {
      node: {
        type: 0,
        childNodes: [
          node({ src: "logo.png", alt: "logo.png" }),
          node({ src: "https://cdn.test/a.png?sig=1", srcset: "https://cdn.test/b.png 2x" }),
          node({ srcset: "https://cdn.test/c.png 1x, d.png 2x" }),
          node({ href: "/account", "xlink:href": "#icon" }),
          node({ src: "data:image/png;base64,AAAA", href: "//cdn.test/e.png" }),
          node({
            style: "background: url(f.png); border-image: url('https://cdn.test/g.png')",
          }),
          node({ _cssText: '@import "site.css"; @import url(https://cdn.test/h.css); a{}' }),
          node({ style: 'background: image-set("i.png" 1x, "https://cdn.test/j.png" 2x)' }),
        ],
      },
    },
  });
  const nodes = (event.data as { node: { childNodes: { attributes: Record<string, string> }[] } })
    .node.childNodes.map((n) => n.attributes);
  assert.deepEqual(nodes[0], { src: "", alt: "logo.png" });
  assert.deepEqual(nodes[1], {
    src: "https://cdn.test/a.png?sig=1",
    srcset: "https://cdn.test/b.png 2x",
  });
  assert.deepEqual(nodes[2], { srcset: "" }, "one relative candidate empties the list");
  assert.deepEqual(nodes[3], { href: "", "xlink:href": "#icon" });
  assert.deepEqual(nodes[4], { src: "data:image/png;base64,AAAA", href: "" });
  assert.equal(
    nodes[5].style,
    "background: url(about:invalid); border-image: url('https://cdn.test/g.png')",
  );
  assert.equal(nodes[6]._cssText, " @import url(https://cdn.test/h.css); a{}");
  assert.equal(
    nodes[7].style,
    'background: image-set("about:invalid" 1x, "https://cdn.test/j.png" 2x)',
  );
});
