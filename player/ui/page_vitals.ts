// Each page's web vitals (LCP, CLS, INP, FCP, TTFB) for its History section, with the ratings ingest
// gave them (core/ingest/web_vitals.ts). A vital belongs to the page it names (its `pathname`) that
// had not ended by the vital's moment: TTFB and FCP are dated from the page's navigation start, a
// moment before its section (the page before's still shows then), and CLS or INP are reported as a
// page goes. Without a page of that name, the section at its moment.
import {
  isVitalName,
  rateVital,
  VITAL_NAMES,
  VITAL_RATINGS,
  type VitalName,
  type VitalRating,
} from "@/core/ingest/web_vitals.ts";

export interface PageVital {
  name: VitalName;
  value: number;
  rating: VitalRating;
  /** What the row shows: `LCP 2.1 s`, `CLS 0.05`, `INP 120 ms`. */
  label: string;
}

interface Marker {
  timestamp: number;
  kind: string;
  data: unknown;
}

interface Page {
  pathname: string | null;
  start: number;
  duration: number;
}

/** The vitals of each page, in `pages`' order, each list in VITAL_NAMES order, a name once (its latest). */
export function pageVitals(
  pages: readonly Page[],
  markers: readonly Marker[],
  sessionStart: number,
): PageVital[][] {
  const byPage = pages.map(() => new Map<VitalName, { at: number; vital: PageVital }>());
  for (const m of markers) {
    const d = (m.kind === "web_vital" ? m.data ?? {} : {}) as Record<string, unknown>;
    if (!isVitalName(d.name) || typeof d.value !== "number" || !Number.isFinite(d.value)) continue;
    const at = m.timestamp - sessionStart;
    const index = pageOf(pages, typeof d.pathname === "string" ? d.pathname : null, at);
    if (index < 0) continue;
    const seen = byPage[index].get(d.name);
    if (seen && seen.at > at) continue;
    const rating = (VITAL_RATINGS as readonly unknown[]).includes(d.rating)
      ? d.rating as VitalRating
      : rateVital(d.name, d.value);
    byPage[index].set(d.name, {
      at,
      vital: { name: d.name, value: d.value, rating, label: vitalLabel(d.name, d.value) },
    });
  }
  return byPage.map((vitals) =>
    VITAL_NAMES.flatMap((name) => vitals.has(name) ? [vitals.get(name)!.vital] : [])
  );
}

/** The first page named `pathname` that had not ended at `at`, else the page showing at `at`. */
function pageOf(pages: readonly Page[], pathname: string | null, at: number): number {
  if (pathname !== null) {
    const named = pages.findIndex((p) => p.pathname === pathname && at < p.start + p.duration);
    if (named >= 0) return named;
  }
  let index = pages.length > 0 ? 0 : -1;
  for (let i = 1; i < pages.length; i++) if (pages[i].start <= at) index = i;
  return index;
}

/** `LCP 2.1 s`, `INP 120 ms`, `CLS 0.05`. */
export function vitalLabel(name: VitalName, value: number): string {
  const shown = name === "cls"
    ? value.toFixed(2)
    : value < 1000
    ? `${Math.round(value)} ms`
    : `${(value / 1000).toFixed(1)} s`;
  return `${name.toUpperCase()} ${shown}`;
}

/** A rating as words, for the row's title and screen readers. */
export function ratingText(rating: VitalRating): string {
  return rating === "needs_improvement" ? "needs improvement" : rating;
}
