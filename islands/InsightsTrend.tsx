// The insights' daily trend of errors, rage clicks and dead clicks (uPlot, loaded on first use
// into its own chunk). The table beside it is the chart's text alternative.
import { useEffect, useRef, useState } from "preact/hooks";
import type uPlot from "uplot";
import type { Insights } from "@/core/insights/schema.ts";

import { dailySeries, legendValue, SERIES } from "@/charts/daily_series.ts";

const HEIGHT = 220;

interface Props {
  daily: Insights["daily"];
  /** The first and last UTC day of the range (YYYY-MM-DD), so quiet days show as zero. */
  from: string;
  to: string;
}

export default function InsightsTrend({ daily, from, to }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState("");
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let plot: uPlot | null = null;
    let gone = false;
    const resize = new ResizeObserver(() =>
      plot?.setSize({ width: element.clientWidth, height: HEIGHT })
    );
    const data = dailySeries(daily, from, to);
    const totals = data.slice(1).map((ys) => ys.reduce((n, y) => n + y, 0));
    import("uplot").then(({ default: UPlot }) => {
      if (gone) return;
      plot = new UPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          // UTC days, as the API counts them
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, 1)] } },
          // one tick per day at most, as month-day
          axes: [{
            incrs: [86_400, 7 * 86_400],
            values: (_u, splits) =>
              splits.map((s) => new Date(s * 1000).toISOString().slice(5, 10)),
          }, { size: 40 }],
          series: [
            // the day hovered, else the range (uPlot would show "--")
            {
              value: (_u: uPlot, v: number | null) =>
                v === null ? `${from} to ${to}` : new Date(v * 1000).toISOString().slice(0, 10),
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
  }, [daily, from, to]);
  const total = daily.reduce((n, d) => n + d.errors + d.rageClicks + d.deadClicks, 0);
  return (
    <div class="insights-trend">
      <div
        role="img"
        aria-label={`Line chart of ${total} signals per day from ${from} to ${to}; the table lists every day.`}
      >
        <div ref={ref} style={{ height: `${HEIGHT}px` }} />
      </div>
      {failed && <p class="error-text" role="alert">Could not draw the chart: {failed}</p>}
    </div>
  );
}
