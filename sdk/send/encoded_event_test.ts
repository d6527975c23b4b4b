import assert from "node:assert/strict";
import { encodeEvent, ingestJson, jsonArray, utf8Length } from "./encoded_event.ts";
import { events } from "@/tests/helpers/sdk_doubles.ts";

Deno.test("encoded events: sizes are UTF-8 bytes; concatenation equals JSON.stringify", async (t) => {
  const odd = { type: 5, timestamp: 1, data: { text: 'é ✓ 😀 \ud800 "q" \\ </script>' } };
  const all = [...events(3), odd].map(encodeEvent);
  for (const e of all) assert.equal(e.bytes, new TextEncoder().encode(e.json).length);
  await t.step("the array", () => {
    assert.equal(jsonArray(all), JSON.stringify([...events(3), odd]));
  });
  await t.step("the request body parses to the same events and metadata", () => {
    const metadata = {
      url: "http://app.test/",
      referrer: "",
      userAgent: "t",
      screenWidth: 1,
      screenHeight: 1,
      language: "en",
    };
    const parts = ingestJson("s1", all, metadata);
    assert.deepEqual(JSON.parse(parts.join("")), {
      sessionId: "s1",
      events: [...events(3), odd],
      metadata,
    });
    assert.equal(ingestJson("s1", []).join(""), JSON.stringify({ events: [], sessionId: "s1" }));
  });
  await t.step("its parts: the events' key, the events' array alone, the rest", () => {
    const [head, list, rest] = ingestJson("s1", all);
    assert.equal(head, '{"events":');
    assert.equal(list, JSON.stringify([...events(3), odd]));
    assert.equal(rest, ',"sessionId":"s1"}');
    const numbered = all.map((e, i) => ({ ...e, page: "p1", seq: 7 + i }));
    assert.equal(ingestJson("s1", numbered)[2], ',"sessionId":"s1","pageId":"p1","seq":7}');
  });
});

Deno.test("encoded events: UTF-8 length counts 1 to 4 bytes per character", () => {
  for (const text of ["", "ascii", "é", "✓", "😀", "a😀é✓z"]) {
    assert.equal(utf8Length(text), new TextEncoder().encode(text).length, text);
  }
});
