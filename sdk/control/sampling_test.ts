import assert from "node:assert/strict";
import { isSampled, sessionFraction } from "./sampling.ts";

Deno.test("sampling: one id always decides the same way; rates 0 and 1 are never and always", () => {
  const id = "6f1c2d3e-4a5b-4c6d-8e7f-001122334455";
  assert.equal(sessionFraction(id), sessionFraction(id));
  assert.equal(isSampled(id, 0), false);
  assert.equal(isSampled(id, 1), true);
  const f = sessionFraction(id);
  assert.equal(isSampled(id, f), false); // strictly below the rate
  assert.equal(isSampled(id, f + 1e-9), true);
});

Deno.test("sampling: over 10,000 random ids the share is within 2 points of the rate", () => {
  for (const rate of [0.1, 0.5, 0.9]) {
    let kept = 0;
    for (let i = 0; i < 10_000; i++) if (isSampled(crypto.randomUUID(), rate)) kept++;
    assert.ok(Math.abs(kept / 10_000 - rate) < 0.02, `${rate}: ${kept}`);
  }
});
