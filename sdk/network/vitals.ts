// Web vitals of the page (npm web-vitals, attribution build for the LCP element's selector) as
// `service:web_vital` events: the name, value, rating, when it happened (`at`, epoch ms) and,
// for LCP, the element, which the replay outlines. Ingest rates each value again itself.
import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from "web-vitals/attribution";
import { rateVital, type VitalName } from "@/core/ingest/web_vitals.ts";
import type { NetworkHost } from "./host.ts";

/** A report made before rrweb records waits for it, this many times a second apart. */
const RETRIES = 30;

interface Attributed {
  lcpEntry?: { startTime: number };
  target?: string;
  largestShiftTime?: number;
  interactionTime?: number;
}

export function watchVitals(host: NetworkHost): void {
  const report = (metric: Metric & { attribution?: Attributed }) => {
    const name = metric.name.toLowerCase() as VitalName;
    const a = metric.attribution ?? {};
    const since = name === "lcp"
      ? a.lcpEntry?.startTime ?? metric.value
      : name === "cls"
      ? a.largestShiftTime ?? 0
      : name === "inp"
      ? a.interactionTime ?? 0
      : metric.value;
    const payload: Record<string, unknown> = {
      name,
      value: name === "cls" ? Math.round(metric.value * 1000) / 1000 : Math.round(metric.value),
      rating: rateVital(name, metric.value),
      at: Math.round(performance.timeOrigin + since),
      pathname: location.pathname,
    };
    if (name === "lcp" && a.target) payload.selector = a.target;
    send(payload, RETRIES);
  };
  const send = (payload: unknown, tries: number) => {
    if (!host.custom("service:web_vital", payload) && tries > 0) {
      setTimeout(() => send(payload, tries - 1), 1000);
    }
  };
  for (const on of [onLCP, onCLS, onINP, onFCP, onTTFB]) on(report as never);
}
