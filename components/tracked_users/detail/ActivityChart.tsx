// Events per bucket as stacked bars (uPlot, loaded on first use into its own chunk): the top
// pages in their colours, the rest as "other". Hovering a bucket reads out its counts; the table
// under it is the chart's text alternative.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type uPlot from "uplot";
import type { TrackedUserActivity } from "@/core/tracked_users/schema.ts";
import { formatCount } from "@/utils/format.ts";
import { type ActivitySeries, activitySeries, stacked } from "@/charts/activity_series.ts";
import type { PageColors } from "@/charts/page_colors.ts";
import { timeTicks, timeZoneName } from "@/charts/time_axis.ts";
import { ActivityTable, bucketLabel, bucketName } from "./ActivityTable.tsx";

const HEIGHT = 240;

interface Props {
  activity: TrackedUserActivity;
  colors: PageColors;
}

export function ActivityChart({ activity, colors }: Props) {
  const plotRef = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [failed, setFailed] = useState("");
  const data = useMemo(() => activitySeries(activity, colors), [activity, colors]);

  useEffect(() => {
    const element = plotRef.current;
    if (!element) return;
    let plot: uPlot | null = null;
    let gone = false;
    const resize = new ResizeObserver(() =>
      plot?.setSize({ width: element.clientWidth, height: HEIGHT })
    );
    import("uplot").then(({ default: UPlot }) => {
      if (gone) return;
      plot = new UPlot(
        chartOptions(UPlot, activity, data, element, setHover),
        chartData(data, activity.bucketMs),
        element,
      );
      resize.observe(element);
    }).catch((error) => setFailed((error as Error).message));
    return () => {
      gone = true;
      resize.disconnect();
      plot?.destroy();
    };
  }, [data]);

  const events = data.totals.reduce((sum, n) => sum + n, 0);
  const peak = data.totals.indexOf(Math.max(...data.totals));
  const label = `Stacked bar chart of ${formatCount(events)} events in ${data.starts.length} ` +
    `buckets of ${bucketName(activity.bucketMs)}` +
    (events > 0
      ? `, the busiest ${bucketLabel(data.starts[peak], activity.bucketMs)} ` +
        `with ${formatCount(data.totals[peak])}`
      : "") +
    "; the table below lists every bucket.";
  return (
    <div class="activity-chart">
      {events === 0
        ? (
          <p class="chart-empty muted" style={{ minHeight: `${HEIGHT}px` }}>
            No events in this window.
          </p>
        )
        : (
          <div role="img" aria-label={label}>
            <div ref={plotRef} class="activity-plot" style={{ height: `${HEIGHT}px` }} />
          </div>
        )}
      {failed
        ? <p class="error-text" role="alert">Could not draw the chart: {failed}</p>
        : <Readout data={data} bucketMs={activity.bucketMs} index={hover} />}
      <ActivityTable data={data} bucketMs={activity.bucketMs} />
    </div>
  );
}

function Readout(
  { data, bucketMs, index }: { data: ActivitySeries; bucketMs: number; index: number | null },
) {
  if (index === null) {
    return <p class="chart-readout muted">Point at a bar for its counts per page.</p>;
  }
  const parts = data.series.filter((s) => s.counts[index] > 0)
    .map((s) => `${s.label} ${formatCount(s.counts[index])}`);
  return (
    <p class="chart-readout" aria-live="off">
      <strong>{bucketLabel(data.starts[index], bucketMs)}</strong> ·{" "}
      {formatCount(data.totals[index])} events
      {parts.length > 0 && `: ${parts.join(" · ")}`}
    </p>
  );
}

/** x at bucket centres; the stacked rows topmost first, so each drawn bar covers the one above. */
function chartData(data: ActivitySeries, bucketMs: number): uPlot.AlignedData {
  return [data.starts.map((t) => t + bucketMs / 2), ...stacked(data.series).toReversed()];
}

function chartOptions(
  UPlot: typeof uPlot,
  activity: TrackedUserActivity,
  data: ActivitySeries,
  element: HTMLElement,
  onHover: (index: number | null) => void,
): uPlot.Options {
  const css = getComputedStyle(element);
  const ink = css.getPropertyValue("--color-muted").trim() || "#5a6478";
  const grid = css.getPropertyValue("--color-border").trim() || "#dde1e9";
  const font = `12px ${css.fontFamily}`;
  const ticks = timeTicks(Date.parse(activity.from), Date.parse(activity.to));
  const bars = UPlot.paths.bars!({ size: [0.82, 64], gap: 1 });
  const axis = {
    stroke: ink,
    font,
    labelFont: `600 ${font}`,
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1 },
  };
  return {
    width: element.clientWidth,
    height: HEIGHT,
    ms: 1,
    legend: { show: false },
    cursor: { points: { show: false }, drag: { x: false, y: false }, y: false },
    scales: {
      x: { time: true, range: () => [Date.parse(activity.from), Date.parse(activity.to)] },
      y: { range: (_u, _min, max) => [0, max > 0 ? Math.ceil(max * 1.1) : 5] },
    },
    axes: [
      {
        ...axis,
        label: `Time (${timeZoneName()})`,
        labelSize: 22,
        // The timeline's ticks, so both charts read the same local hours and days.
        splits: () => ticks.map((t) => t.t),
        values: (_u, splits) => splits.map((v) => ticks.find((t) => t.t === v)?.label ?? ""),
      },
      {
        ...axis,
        label: `Events per ${bucketName(activity.bucketMs)}`,
        labelSize: 22,
        size: 52,
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000],
        values: (_u, splits) => splits.map((v) => formatCount(v)),
      },
    ],
    series: [
      {},
      ...data.series.toReversed().map((s) => ({
        label: s.label,
        fill: s.color,
        stroke: s.color,
        width: 0,
        paths: bars,
        points: { show: false },
      })),
    ],
    hooks: {
      setCursor: [(u) => onHover(u.cursor.idx ?? null)],
    },
  };
}
