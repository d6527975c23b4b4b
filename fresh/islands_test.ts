import assert from "node:assert/strict";
import { h } from "preact";
import { assertJsonProps, scriptSafeJson } from "./serialize.ts";
import { FAKE_BUILD, fixture } from "./testdata/helpers.ts";

function islandState(html: string) {
  const match = /<script type="application\/json" id="__FRSH_STATE">(.*?)<\/script>/s.exec(html);
  assert.ok(match, "the page carries island state");
  return JSON.parse(match[1]);
}

Deno.test("islands: each island is marked and its props serialised in order", async () => {
  await using app = await fixture();
  const res = await app.get("/counter");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(
    html,
    /<fresh-island data-island="Counter" data-props="0" style="display:contents"><div class="counter">/,
  );
  assert.match(html, /<fresh-island data-island="Counter" data-props="1"/);
  const state = islandState(html);
  assert.deepEqual(state.props, [{ start: 3, label: "Clicks" }, { start: 10, label: "Second" }]);
  assert.deepEqual(state.islands, { Counter: `/build/${FAKE_BUILD.islands.Counter}` });
  assert.equal(state.buildId, "testbuild");
});

Deno.test("islands: the boot script and only the used chunks are loaded", async () => {
  await using app = await fixture();
  const html = await (await app.get("/counter")).text();
  assert.match(html, /<script type="module" src="\/build\/fresh-boot-AAAA1111\.js"><\/script>/);
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) =>
    m[1]
  );
  assert.deepEqual(preloads.sort(), [
    "/build/chunk-CCCC3333.js",
    "/build/fresh-boot-AAAA1111.js",
    "/build/island-Counter-BBBB2222.js",
  ]);
});

Deno.test("islands: props with </script> and unicode survive and cannot break out", async () => {
  await using app = await fixture();
  const label = '</script><script>alert(1)</script><!-- "é 日本 🎉 \u2028';
  const html = await (await app.get(`/counter?label=${encodeURIComponent(label)}`)).text();
  assert.equal(html.match(/<\/script>/g)?.length, 2, "only the two real script elements close");
  assert.doesNotMatch(html, /<script>alert/);
  assert.equal(islandState(html).props[0].label, label);
});

Deno.test("islands: non-JSON props fail the render with a clear error", async () => {
  await using app = await fixture();
  const res = await app.get("/bad-props");
  assert.equal(res.status, 500);
  const error = app.errors[0];
  assert.ok(error instanceof TypeError);
  assert.match(error.message, /Island "Counter": props\.start is a function/);
});

Deno.test("islands: a basePath prefixes every build URL", async () => {
  await using app = await fixture({ basePath: "/app" });
  const html = await (await app.get("/app/counter")).text();
  assert.match(html, /src="\/app\/build\/fresh-boot-AAAA1111\.js"/);
  assert.equal(islandState(html).islands.Counter, "/app/build/island-Counter-BBBB2222.js");
});

Deno.test("serialise: plain JSON values pass", () => {
  assertJsonProps("X", {
    a: "s",
    b: 1.5,
    c: true,
    d: null,
    e: [1, { f: "g" }],
    h: Object.assign(Object.create(null), { i: 1 }),
    optional: undefined,
  });
});

Deno.test("serialise: everything JSON cannot round-trip is refused with its path", () => {
  const cases: [unknown, RegExp][] = [
    [() => 1, /props\.v is a function/],
    [new Date(0), /props\.v is a Date/],
    [new Map(), /props\.v is a Map/],
    [10n, /props\.v is a bigint/],
    [Symbol("s"), /props\.v is a symbol/],
    [NaN, /props\.v is NaN/],
    [Infinity, /props\.v is Infinity/],
    [[1, undefined], /props\.v\[1\] is undefined/],
    [{ deep: [{ when: new Date(0) }] }, /props\.v\.deep\[0\]\.when is a Date/],
    [h("div", null), /props\.v is a JSX element/],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => assertJsonProps("Island", { v: value }), message);
  }
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.throws(() => assertJsonProps("Island", { v: cycle }), /props\.v\.self is a circular/);
});

Deno.test("serialise: script-safe JSON escapes markup characters and parses back", () => {
  const value = { s: "</script><!--&\u2028\u2029>" };
  const text = scriptSafeJson(value);
  assert.doesNotMatch(text, /[<>&\u2028\u2029]/);
  assert.deepEqual(JSON.parse(text), value);
});
