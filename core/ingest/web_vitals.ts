// Web vitals and their ratings by the published thresholds (web.dev: good at or below the first,
// poor above the second), shared by the SDK's network bundle, ingest (which rates each value
// itself) and the sessions list's `vital` filter. Free of dependencies: the SDK imports it.

export const VITAL_NAMES = ["lcp", "cls", "inp", "fcp", "ttfb"] as const;
export type VitalName = typeof VITAL_NAMES[number];
export const VITAL_RATINGS = ["good", "needs_improvement", "poor"] as const;
export type VitalRating = typeof VITAL_RATINGS[number];

/** [good at or below, poor above]: ms, except CLS (a unitless score). */
export const VITAL_THRESHOLDS: Record<VitalName, readonly [number, number]> = {
  lcp: [2500, 4000],
  cls: [0.1, 0.25],
  inp: [200, 500],
  fcp: [1800, 3000],
  ttfb: [800, 1800],
};

export function rateVital(name: VitalName, value: number): VitalRating {
  const [good, poor] = VITAL_THRESHOLDS[name];
  return value <= good ? "good" : value <= poor ? "needs_improvement" : "poor";
}

export function isVitalName(name: unknown): name is VitalName {
  return typeof name === "string" && (VITAL_NAMES as readonly string[]).includes(name);
}
