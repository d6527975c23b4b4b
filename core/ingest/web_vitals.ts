// Web vitals and their ratings by the published thresholds, as the npm web-vitals package itself
// exports them (good at or below the first, poor above the second, web.dev), shared by the SDK's
// network bundle, ingest (which rates each value itself), the replay's History and the sessions
// list's `vital` filter. Only the threshold constants are imported (one module per metric): the
// islands' bundles take none of web-vitals' code (the replay island grew by 50 bytes).
import { CLSThresholds } from "web-vitals/onCLS.js";
import { FCPThresholds } from "web-vitals/onFCP.js";
import { INPThresholds } from "web-vitals/onINP.js";
import { LCPThresholds } from "web-vitals/onLCP.js";
import { TTFBThresholds } from "web-vitals/onTTFB.js";

export const VITAL_NAMES = ["lcp", "cls", "inp", "fcp", "ttfb"] as const;
export type VitalName = typeof VITAL_NAMES[number];
export const VITAL_RATINGS = ["good", "needs_improvement", "poor"] as const;
export type VitalRating = typeof VITAL_RATINGS[number];

/** [good at or below, poor above]: ms, except CLS (a unitless score). */
export const VITAL_THRESHOLDS: Record<VitalName, readonly number[]> = {
  lcp: LCPThresholds,
  cls: CLSThresholds,
  inp: INPThresholds,
  fcp: FCPThresholds,
  ttfb: TTFBThresholds,
};

export function rateVital(name: VitalName, value: number): VitalRating {
  const [good, poor] = VITAL_THRESHOLDS[name];
  return value <= good ? "good" : value <= poor ? "needs_improvement" : "poor";
}

export function isVitalName(name: unknown): name is VitalName {
  return typeof name === "string" && (VITAL_NAMES as readonly string[]).includes(name);
}
