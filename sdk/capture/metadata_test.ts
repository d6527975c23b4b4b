import assert from "node:assert/strict";
import { CUT_MARK, MARKER_TEXT_CHARS, PATHNAME_CHARS, URL_CHARS } from "@/core/ingest/limits.ts";
import { boundedTraits, urlPayload } from "./metadata.ts";

Deno.test("sdk metadata: a url payload is cut to the service's bounds, a short one kept", () => {
  assert.deepEqual(urlPayload("https://shop.test/cart?x=1"), {
    url: "https://shop.test/cart?x=1",
    pathname: "/cart",
  });
  const token = "t".repeat(3000);
  const long = urlPayload(`https://shop.test/${"p".repeat(600)}?code=${token}`);
  assert.equal(long.url.length, URL_CHARS);
  assert.ok(long.url.endsWith(CUT_MARK));
  assert.equal(long.pathname, `/${"p".repeat(PATHNAME_CHARS - 2)}${CUT_MARK}`);
});

Deno.test("sdk metadata: trait texts over the bound are cut, others kept as they are", () => {
  const traits = boundedTraits({
    plan: "pro",
    at: "a".repeat(MARKER_TEXT_CHARS),
    over: "o".repeat(MARKER_TEXT_CHARS + 1),
    seats: 3,
    tags: ["x"],
  });
  assert.deepEqual(traits, {
    plan: "pro",
    at: "a".repeat(MARKER_TEXT_CHARS),
    over: "o".repeat(MARKER_TEXT_CHARS - 1) + CUT_MARK,
    seats: 3,
    tags: ["x"],
  });
});
