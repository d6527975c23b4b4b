// The insights trend of errors, rage clicks and dead clicks, per UTC day of the range or, for
// today, per hour (uPlot, loaded on first use into its own chunk). The table beside it is the
// chart's text alternative.
import { useEffect, useRef, useState } from "preact/hooks";
import type uPlot from "uplot";
import type { Insights } from "@/core/insights/schema.ts";

import { dailySeries, hourlySeries, legendValue, SERIES } from "@/charts/daily_series.ts";

const HEIGHT = 220;
const HOUR = 3_600;
const DAY = 86_400;
/** The count axis' steps: whole signals, never 0.2 of one. */
const COUNT_STEPS = [
  1,
  2,
  5,
  10,
  20,
  50,
  100,
  200,
  500,
  1_000,
  2_000,
  5_000,
  10_000,
  20_000,
  50_000,
];

interface Props {
  daily: Insights["daily"];
  hourly: Insights["hourly"];
  /** A point per day, or per hour (today). */
  by: "day" | "hour";
  /**
   * The range's first and last point, so quiet ones show as zero: UTC days (YYYY-MM-DD), or the
   * ISO starts of today's first and current hours.
   */
  from: string;
  to: string;
}

/** A point's x as the axis and legend say it: the day (MM-DD, YYYY-MM-DD) or the hour (HH:MM). */
const dayOf = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
const hourOf = (s: number) => new Date(s * 1000).toISOString().slice(11, 16);

export default function InsightsTrend({ daily, hourly, by, from, to }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState("");
  const hours = by === "hour";
  const range = hours ? "today (UTC)" : `${from} to ${to}`;
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let plot: uPlot | null = null;
    let gone = false;
    const resize = new ResizeObserver(() =>
      plot?.setSize({ width: element.clientWidth, height: HEIGHT })
    );
    const data = hours ? hourlySeries(hourly, from, to) : dailySeries(daily, from, to);
    const totals = data.slice(1).map((ys) => ys.reduce((n, y) => n + y, 0));
    import("uplot").then(({ default: UPlot }) => {
      if (gone) return;
      plot = new UPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          // UTC days and hours, as the API counts them
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, 1)] } },
          // one tick per day (as month-day) or hour (as 14:00) at most
          axes: [{
            incrs: hours ? [HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR] : [DAY, 7 * DAY],
            values: (_u, splits) => splits.map((s) => hours ? hourOf(s) : dayOf(s).slice(5)),
          }, { size: 40, incrs: COUNT_STEPS }],
          series: [
            // the day or hour hovered, else the range (uPlot would show "--")
            {
              value: (_u: uPlot, v: number | null) =>
                v === null
                  ? range
                  : hours
                  ? `${hourOf(v)}–${hourOf(v + HOUR).replace("00:00", "24:00")} UTC`
                  : dayOf(v),
            },
            ...SERIES.map((s, i) => ({
              label: s.label,
              stroke: s.stroke,
              width: 2,
              points: { size: 5 },
              value: (_u: uPlot, v: number | null) => legendValue(v, totals[i]),
            })),
          ],
        },
        data as uPlot.AlignedData,
        element,
      );
      resize.observe(element);
    }).catch((error) => setFailed((error as Error).message));
    return () => {
      gone = true;
      resize.disconnect();
      plot?.destroy();
    };
  }, [daily, hourly, by, from, to]);
  const total = (hours ? hourly : daily)
    .reduce((n, d) => n + d.errors + d.rageClicks + d.deadClicks, 0);
  return (
    <div class="insights-trend">
      <div
        role="img"
        aria-label={`Line chart of ${total} signals per ${by} ${
          hours ? range : `from ${range}`
        }; the table lists every ${by}.`}
      >
        <div ref={ref} style={{ height: `${HEIGHT}px` }} />
      </div>
      {failed && <p class="error-text" role="alert">Could not draw the chart: {failed}</p>}
    </div>
  );
}
