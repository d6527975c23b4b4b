// Maps the privacy options onto rrweb's recorder options. Privacy is applied at capture:
// what is masked or blocked here never leaves the page.

import type { ResolvedOptions } from "@/sdk/types.ts";

/** Full snapshot cadence, so long sessions stay seekable. */
export const CHECKOUT_EVERY_MS = 5 * 60 * 1000;

/** Elements `privacyBlockMedia` replaces with placeholders. */
export const MEDIA_SELECTOR = "img, picture, image, video, audio";

/**
 * What a masked `<select>` records as its value, whichever option is chosen: a mask as long as the
 * value would tell options apart by length, and the player shows this neutral value for it.
 */
export const MASKED_SELECT = "*****";

/** The subset of rrweb's record options the SDK sets. */
export interface CaptureOptions {
  maskAllInputs: boolean;
  maskInputOptions: Record<string, boolean>;
  maskInputFn: (text: string, element: HTMLElement) => string;
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

/**
 * Every input kind rrweb's `maskAllInputs` masks, plus `hidden`, which it leaves out (rrweb#1609):
 * `privacyMaskInputs` promises every input value, and hidden ones carry CSRF tokens and ids.
 */
const ALL_INPUTS: Record<string, boolean> = Object.fromEntries(
  [
    "color",
    "date",
    "datetime-local",
    "email",
    "month",
    "number",
    "range",
    "search",
    "tel",
    "text",
    "time",
    "url",
    "week",
    "textarea",
    "select",
    "password",
    "hidden",
  ].map((type) => [type, true]),
);

/** A contenteditable region is an input to the visitor: its text is masked with the inputs. */
const EDITABLE = '[contenteditable]:not([contenteditable="false"])';

export function captureOptions(options: ResolvedOptions): CaptureOptions {
  const blocked = [`[${options.privacyBlockAttribute}]`];
  if (options.privacyBlockMedia) blocked.push(MEDIA_SELECTOR);
  return {
    // The list is given explicitly (maskAllInputs would replace it with rrweb's, without hidden).
    maskAllInputs: false,
    // Passwords stay masked even when a customer turns input masking off.
    maskInputOptions: options.privacyMaskInputs ? ALL_INPUTS : { password: true },
    // Called only for the values being masked.
    maskInputFn: (text, element) =>
      element.localName === "select" ? MASKED_SELECT : "*".repeat(text.length),
    maskTextSelector: options.privacyMaskInputs
      ? `[${options.privacyMaskAttribute}], ${EDITABLE}`
      : `[${options.privacyMaskAttribute}]`,
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
