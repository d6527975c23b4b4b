import assert from "node:assert/strict";
import { MARKER_DATA_CHARS, MARKER_TEXT_CHARS, SELECTOR_CHARS, URL_CHARS } from "./limits.ts";
import { markerPayload } from "./marker_payload.ts";

const text = (n: number) => "a".repeat(n);

Deno.test("marker payload: strings and keys are cut to MARKER_TEXT_CHARS, at any depth", () => {
  const data = markerPayload("checkout", {
    at: text(MARKER_TEXT_CHARS),
    over: text(MARKER_TEXT_CHARS + 1),
    nested: { list: [text(5000)] },
    [text(2000)]: 1,
  }) as Record<string, unknown>;
  assert.equal((data.at as string).length, MARKER_TEXT_CHARS);
  assert.ok(!(data.at as string).endsWith("…"));
  assert.equal(data.over, text(MARKER_TEXT_CHARS - 1) + "…");
  assert.equal((data.nested as { list: string[] }).list[0].length, MARKER_TEXT_CHARS);
  assert.ok(Object.keys(data).every((key) => key.length <= MARKER_TEXT_CHARS));
});

Deno.test("marker payload: the fields the service reads have their own bounds", () => {
  const url = markerPayload("url", { url: text(URL_CHARS + 1), pathname: "/" }) as {
    url: string;
  };
  assert.equal(url.url.length, URL_CHARS);
  const click = markerPayload("rage_click", { selector: text(SELECTOR_CHARS) }) as {
    selector: string;
  };
  assert.equal(click.selector, text(SELECTOR_CHARS));
  const over = markerPayload("dead_click", { selector: text(SELECTOR_CHARS + 1) }) as {
    selector: string;
  };
  assert.equal(over.selector, text(SELECTOR_CHARS - 1) + "…");
});

Deno.test("marker payload: past MARKER_DATA_CHARS only the read fields are kept, marked truncated", () => {
  const fields = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, 1]));
  // Each field `"fN":1,` is a few characters: find the counts on both sides of the bound.
  let n = 1;
  // Every field adds characters, so the bound is passed within MARKER_DATA_CHARS steps.
  while (n < MARKER_DATA_CHARS && JSON.stringify(fields(n + 1)).length <= MARKER_DATA_CHARS) n++;
  assert.ok(n < MARKER_DATA_CHARS, "fields never grew past the bound");
  assert.deepEqual(markerPayload("x", fields(n)), fields(n));
  assert.deepEqual(markerPayload("x", fields(n + 1)), { truncated: true });
  const click = markerPayload("rage_click", {
    selector: "button",
    text: "Buy",
    x: 1,
    y: 2,
    clicks: 3,
    ...fields(n),
  });
  assert.deepEqual(click, {
    truncated: true,
    selector: "button",
    text: "Buy",
    x: 1,
    y: 2,
    clicks: 3,
  });
});
