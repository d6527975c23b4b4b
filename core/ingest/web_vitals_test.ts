import assert from "node:assert/strict";
import { rateVital, VITAL_NAMES, VITAL_THRESHOLDS } from "./web_vitals.ts";

Deno.test("web vitals: each rating holds at its threshold and changes just past it", () => {
  for (const name of VITAL_NAMES) {
    const [good, poor] = VITAL_THRESHOLDS[name];
    const step = name === "cls" ? 0.001 : 1;
    assert.equal(rateVital(name, good - step), "good", name);
    assert.equal(rateVital(name, good), "good", name);
    assert.equal(rateVital(name, good + step), "needs_improvement", name);
    assert.equal(rateVital(name, poor), "needs_improvement", name);
    assert.equal(rateVital(name, poor + step), "poor", name);
  }
});

Deno.test("web vitals: the published thresholds (LCP 2.5 s / 4 s, CLS 0.1 / 0.25, INP 200 / 500 ms, FCP 1.8 s / 3 s, TTFB 0.8 s / 1.8 s)", () => {
  assert.deepEqual(VITAL_THRESHOLDS, {
    lcp: [2500, 4000],
    cls: [0.1, 0.25],
    inp: [200, 500],
    fcp: [1800, 3000],
    ttfb: [800, 1800],
  });
  assert.equal(rateVital("lcp", 5000), "poor");
});
