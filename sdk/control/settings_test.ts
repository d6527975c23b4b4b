import assert from "node:assert/strict";
import { DEFAULT_RECORDING } from "@/core/projects/recording_limits.ts";
import { fetchSettings, lastKnown, narrow } from "./settings.ts";
import { DEFAULT_OPTIONS } from "@/sdk/options.ts";
import type { ResolvedOptions } from "@/sdk/types.ts";

const KEY = "sp_0123456789abcdef0123456789abcdef";
const options = (o: Partial<ResolvedOptions> = {}): ResolvedOptions => ({
  ...DEFAULT_OPTIONS,
  apiKey: KEY,
  endpoint: "https://ph.test",
  ...o,
});
const PROJECT = {
  sampleRate: 0.5,
  minDurationMs: 2_000,
  urlBlock: ["/admin/**"],
  urlAllow: ["/shop/**"],
  triggers: ["error" as const, "rage_click" as const],
  bufferMs: 90_000,
};
const memory = () => {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
};

Deno.test("capture settings: init options narrow the project's settings, never widen them", () => {
  assert.deepEqual(narrow(PROJECT, options()), { ...PROJECT, urlAllow: [["/shop/**"], []] });
  const wider = narrow(
    PROJECT,
    options({
      sampleRate: 1,
      minDurationMs: 0,
      triggers: ["error", "rage_click", "dead_click"],
      bufferMs: 120_000,
    }),
  );
  assert.equal(wider.sampleRate, 0.5);
  assert.equal(wider.minDurationMs, 2_000);
  assert.deepEqual(wider.triggers, ["error", "rage_click"]);
  assert.equal(wider.bufferMs, 90_000);
  const narrower = narrow(
    PROJECT,
    options({
      sampleRate: 0.1,
      minDurationMs: 5_000,
      urlBlock: ["/account/*"],
      urlAllow: ["/shop/cart"],
      triggers: ["error"],
      bufferMs: 30_000,
    }),
  );
  assert.deepEqual(narrower, {
    sampleRate: 0.1,
    minDurationMs: 5_000,
    urlBlock: ["/admin/**", "/account/*"],
    urlAllow: [["/shop/**"], ["/shop/cart"]],
    triggers: ["error"],
    bufferMs: 30_000,
  });
});

Deno.test("capture settings: read and remembered; unreadable → the last known, else the defaults; 401 → null", async () => {
  const storage = memory();
  const answer = (res: Response | Error) =>
    (() => res instanceof Error ? Promise.reject(res) : Promise.resolve(res)) as typeof fetch;
  // nothing known yet: a network error gives today's defaults
  assert.deepEqual(
    await fetchSettings(options(), storage, answer(new TypeError("offline"))),
    DEFAULT_RECORDING,
  );
  assert.deepEqual(
    await fetchSettings(options(), storage, answer(Response.json(PROJECT))),
    PROJECT,
  );
  assert.deepEqual(lastKnown(storage, KEY), PROJECT);
  for (const failure of [new TypeError("offline"), new Response("", { status: 503 })]) {
    assert.deepEqual(await fetchSettings(options(), storage, answer(failure)), PROJECT);
  }
  // an answer of the wrong shape is not trusted
  const odd = Response.json({ sampleRate: "all" });
  assert.deepEqual(await fetchSettings(options(), storage, answer(odd)), PROJECT);
  const refused = new Response("{}", { status: 401 });
  assert.equal(await fetchSettings(options(), storage, answer(refused)), null);
  assert.deepEqual(lastKnown(memory(), KEY), DEFAULT_RECORDING);
});
