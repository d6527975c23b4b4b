import assert from "node:assert/strict";
import { DEFAULT_OPTIONS, resolveOptions } from "./options.ts";

const KEY = "sp_0123456789abcdef0123456789abcdef";

Deno.test("options: only apiKey and endpoint are needed; the documented defaults fill the rest", () => {
  const result = resolveOptions({ apiKey: KEY, endpoint: "https://rec.example.com/" });
  assert.ok(result.ok);
  assert.deepEqual(result.options, {
    ...DEFAULT_OPTIONS,
    apiKey: KEY,
    endpoint: "https://rec.example.com",
  });
  assert.equal(result.options.flushInterval, 60000);
  assert.equal(result.options.batchSize, 2000);
  assert.equal(result.options.recordConsole, true);
  assert.equal(result.options.privacyMaskInputs, true);
  assert.equal(result.options.privacyMaskAttribute, "data-service-mask");
  assert.equal(result.options.privacyBlockAttribute, "data-service-block");
  assert.equal(result.options.privacyBlockMedia, false);
  assert.equal(result.options.autoStart, true);
  assert.equal(result.options.hold, false);
});

Deno.test("options: an endpoint under a path keeps the path without its trailing slash", () => {
  const result = resolveOptions({ apiKey: KEY, endpoint: "http://127.0.0.1:8000/playhead//" });
  assert.ok(result.ok);
  assert.equal(result.options.endpoint, "http://127.0.0.1:8000/playhead");
});

Deno.test("options: undefined values fall back to defaults", () => {
  const result = resolveOptions({ apiKey: KEY, endpoint: "https://x.test", batchSize: undefined });
  assert.ok(result.ok);
  assert.equal(result.options.batchSize, 2000);
});

Deno.test("options: every problem is reported at once", () => {
  const result = resolveOptions({
    apiKey: "pk_live",
    endpoint: "ftp://x",
    flushInterval: -5,
    batchSize: 20_000,
    recordConsole: "yes",
    privacyMaskAttribute: "has space",
    flushIntervall: 10,
  });
  assert.equal(result.ok, false);
  assert.ok(!result.ok);
  assert.equal(result.errors.length, 7);
  assert.match(result.errors.join("\n"), /unknown option "flushIntervall"/);
  assert.match(result.errors.join("\n"), /apiKey/);
  assert.match(result.errors.join("\n"), /endpoint/);
  assert.match(result.errors.join("\n"), /flushInterval must/);
  assert.match(result.errors.join("\n"), /batchSize/);
  assert.match(result.errors.join("\n"), /recordConsole/);
  assert.match(result.errors.join("\n"), /privacyMaskAttribute/);
});

Deno.test("options: missing key, missing endpoint and non-objects are rejected", () => {
  assert.equal(resolveOptions({ endpoint: "https://x.test" }).ok, false);
  assert.equal(resolveOptions({ apiKey: KEY }).ok, false);
  assert.equal(resolveOptions(null).ok, false);
  assert.equal(resolveOptions("sp_...").ok, false);
  assert.equal(resolveOptions({ apiKey: KEY.toUpperCase(), endpoint: "https://x.test" }).ok, false);
  assert.equal(resolveOptions({ apiKey: KEY, endpoint: "https://x.test?a=1" }).ok, false);
  assert.equal(
    resolveOptions({ apiKey: KEY, endpoint: "https://x.test", batchSize: 1.5 }).ok,
    false,
  );
});

Deno.test("options: the narrowing options hold the settings' bounds, at and past each", () => {
  const base = { apiKey: KEY, endpoint: "https://rec.example.com" };
  const globs = (n: number) => Array.from({ length: n }, (_, i) => `/p${i}`);
  const good = [
    { sampleRate: 0 },
    { sampleRate: 1 },
    { minDurationMs: 0 },
    { minDurationMs: 60_000 },
    { bufferMs: 30_000 },
    { bufferMs: 120_000 },
    { urlBlock: globs(50) },
    { urlAllow: ["/shop/**"] },
    { triggers: [] },
    { triggers: ["error", "dead_click"] },
  ];
  for (const o of good) assert.ok(resolveOptions({ ...base, ...o }).ok, JSON.stringify(o));
  const bad: [Record<string, unknown>, string][] = [
    [{ sampleRate: -0.01 }, "sampleRate"],
    [{ sampleRate: 1.01 }, "sampleRate"],
    [{ minDurationMs: 60_001 }, "minDurationMs"],
    [{ minDurationMs: 1.5 }, "minDurationMs"],
    [{ bufferMs: 29_999 }, "bufferMs"],
    [{ bufferMs: 120_001 }, "bufferMs"],
    [{ urlBlock: globs(51) }, "urlBlock"],
    [{ urlBlock: ["admin"] }, "urlBlock"],
    [{ urlAllow: "/shop" }, "urlAllow"],
    [{ triggers: ["crash"] }, "triggers"],
  ];
  for (const [o, name] of bad) {
    const result = resolveOptions({ ...base, ...o });
    assert.ok(!result.ok && result.errors.some((e) => e.startsWith(name)), JSON.stringify(o));
  }
});

Deno.test("options: a glob holds at most 8 wildcards, a run of stars counting once", () => {
  const base = { apiKey: KEY, endpoint: "https://rec.example.com" };
  const stars = (n: number) => "/" + Array.from({ length: n }, (_, i) => `p${i}*`).join("/");
  assert.ok(resolveOptions({ ...base, urlBlock: [stars(7)] }).ok);
  assert.ok(resolveOptions({ ...base, urlAllow: [stars(8)] }).ok);
  assert.ok(resolveOptions({ ...base, urlBlock: ["/a***b/**/c?d" + "/*".repeat(6)] }).ok);
  for (const key of ["urlBlock", "urlAllow"]) {
    const result = resolveOptions({ ...base, [key]: ["/ok", stars(9)] });
    assert.ok(!result.ok, key);
    assert.ok(result.errors.some((e) => e.startsWith(`${key}:`) && e.includes("8 wildcards")));
  }
});
