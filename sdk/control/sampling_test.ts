import assert from "node:assert/strict";
import { FakeStorage } from "@/tests/helpers/sdk_doubles.ts";
import { CaptureGate, type GateHost } from "./capture_gate.ts";
import { isSampled, sessionFraction } from "./sampling.ts";
import type { CaptureSettings } from "./settings.ts";

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

Deno.test("sampling: isSampled asked twice about one id answers the same, at every rate", () => {
  for (let i = 0; i < 1_000; i++) {
    const id = crypto.randomUUID();
    for (const rate of [0.01, 0.25, 0.5, 0.75, 0.99]) {
      assert.equal(isSampled(id, rate), isSampled(id, rate), `${id} at ${rate}`);
    }
  }
});

Deno.test("sampling: a session left out stays out on its next pages, at the same rate", () => {
  const settings: CaptureSettings = {
    sampleRate: 0.5,
    minDurationMs: 0,
    urlBlock: [],
    urlAllow: [[], []],
    triggers: [],
    bufferMs: 60_000,
  };
  let left = 0;
  for (let i = 0; i < 200; i++) {
    const id = crypto.randomUUID();
    const storage = new FakeStorage(); // the tab's sessionStorage, shared by its pages
    const first = new CaptureGate(id, storage, host(), settings);
    first.apply(settings);
    if (first.mode !== "off") continue;
    left++;
    for (let page = 2; page <= 3; page++) {
      const next = new CaptureGate(id, storage, host(), settings);
      next.apply(settings);
      assert.equal(next.mode, "off", `${id}, page ${page}`);
    }
  }
  assert.ok(left >= 60, `${left} of 200 sessions left out at 0.5`);
});

function host(): GateHost {
  return {
    adopt: () => {},
    number: () => {},
    send: () => 0,
    snapshot: () => {},
    capture: () => {},
    sendable: () => {},
  };
}
