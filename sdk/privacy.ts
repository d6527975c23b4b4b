// Maps the privacy options onto rrweb's recorder options. Privacy is applied at capture:
// what is masked or blocked here never leaves the page.

import type { ResolvedOptions } from "./types.ts";

/** Full snapshot cadence, so long sessions stay seekable (issue 4). */
export const CHECKOUT_EVERY_MS = 5 * 60 * 1000;

/** Elements `privacyBlockMedia` replaces with placeholders. */
export const MEDIA_SELECTOR = "img, picture, image, video, audio";

/** The subset of rrweb's record options the SDK sets. */
export interface CaptureOptions {
  maskAllInputs: boolean;
  maskInputOptions: Record<string, boolean>;
  maskTextSelector: string;
  blockSelector: string;
  checkoutEveryNms: number;
  slimDOMOptions: "all";
  recordCanvas: false;
  collectFonts: false;
  inlineImages: false;
  recordCrossOriginIframes: false;
  recordAfter: "DOMContentLoaded";
}

export function captureOptions(options: ResolvedOptions): CaptureOptions {
  const blocked = [`[${options.privacyBlockAttribute}]`];
  if (options.privacyBlockMedia) blocked.push(MEDIA_SELECTOR);
  return {
    maskAllInputs: options.privacyMaskInputs,
    // Passwords stay masked even when a customer turns input masking off.
    maskInputOptions: options.privacyMaskInputs ? {} : { password: true },
    maskTextSelector: `[${options.privacyMaskAttribute}]`,
    blockSelector: blocked.join(", "),
    checkoutEveryNms: CHECKOUT_EVERY_MS,
    slimDOMOptions: "all",
    // Canvas pixels, font files and inlined images are content outside the DOM's text.
    recordCanvas: false,
    collectFonts: false,
    inlineImages: false,
    recordCrossOriginIframes: false,
    // Start at DOMContentLoaded rather than after every image has loaded.
    recordAfter: "DOMContentLoaded",
  };
}
