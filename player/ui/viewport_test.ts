import assert from "node:assert/strict";
import { fitViewport } from "./viewport.ts";

Deno.test("viewport: the narrower ratio wins and the recording is centred", () => {
  // 960×540 slot, 1280×800 recording: height limits (0.675), bands left and right.
  assert.deepEqual(fitViewport({ width: 960, height: 540 }, { width: 1280, height: 800 }), {
    scale: 0.675,
    left: (960 - 864) / 2,
    top: 0,
  });
  // A 600×800 portrait recording in the same slot.
  const portrait = fitViewport({ width: 960, height: 540 }, { width: 600, height: 800 });
  assert.equal(portrait.scale, 540 / 800);
  assert.equal(portrait.left, (960 - 600 * 540 / 800) / 2);
  // A wide recording: width limits, bands above and below.
  assert.deepEqual(fitViewport({ width: 800, height: 450 }, { width: 1600, height: 600 }), {
    scale: 0.5,
    left: 0,
    top: (450 - 300) / 2,
  });
});

Deno.test("viewport: an unknown recorded size is shown unscaled", () => {
  assert.deepEqual(fitViewport({ width: 800, height: 450 }, { width: 0, height: 0 }), {
    scale: 1,
    left: 0,
    top: 0,
  });
});
