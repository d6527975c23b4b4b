import assert from "node:assert/strict";
import { DEFAULT_OPTIONS } from "@/sdk/options.ts";
import { captureOptions, CHECKOUT_EVERY_MS } from "./privacy.ts";

const base = { ...DEFAULT_OPTIONS, apiKey: "sp_x", endpoint: "https://x.test" };

Deno.test("privacy: defaults mask every input and the mask attribute, block the block attribute", () => {
  const o = captureOptions(base);
  assert.equal(o.maskAllInputs, false);
  for (const type of ["text", "email", "password", "textarea", "select", "hidden"]) {
    assert.equal(o.maskInputOptions[type], true, type);
  }
  assert.equal(
    o.maskTextSelector,
    '[data-service-mask], [contenteditable]:not([contenteditable="false"])',
  );
  assert.equal(o.blockSelector, "[data-service-block]");
  assert.equal(o.checkoutEveryNms, CHECKOUT_EVERY_MS);
  assert.equal(CHECKOUT_EVERY_MS, 300_000);
  assert.equal(o.recordCanvas, false);
  assert.equal(o.inlineImages, false);
  assert.equal(o.collectFonts, false);
});

Deno.test("privacy: blockMedia adds images, video and audio; custom attributes are used", () => {
  const o = captureOptions({
    ...base,
    privacyBlockMedia: true,
    privacyMaskAttribute: "data-secret",
    privacyBlockAttribute: "data-hide",
  });
  assert.equal(o.blockSelector, "[data-hide], img, picture, image, video, audio");
  assert.equal(
    o.maskTextSelector,
    '[data-secret], [contenteditable]:not([contenteditable="false"])',
  );
});

Deno.test("privacy: with input masking off, passwords are still masked", () => {
  const o = captureOptions({ ...base, privacyMaskInputs: false });
  assert.equal(o.maskAllInputs, false);
  assert.deepEqual(o.maskInputOptions, { password: true });
  assert.equal(o.maskTextSelector, "[data-service-mask]");
});
