// The activity chart's text alternative, open on demand: events per bucket, in total and per page.
import { formatCount } from "@/utils/format.ts";
import type { ActivitySeries } from "@/charts/activity_series.ts";

const startFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});
const endFormat = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit" });

/** "15 min", "hour", "6 hours": a bucket's size as the axis title says it. */
export function bucketName(bucketMs: number): string {
  if (bucketMs < 3_600_000) return `${bucketMs / 60_000} min`;
  return bucketMs === 3_600_000 ? "hour" : `${bucketMs / 3_600_000} hours`;
}

/** "Thu 12 Mar, 14:00–15:00" in the viewer's time zone. */
export function bucketLabel(start: number, bucketMs: number): string {
  return `${startFormat.format(start)}–${endFormat.format(start + bucketMs)}`;
}

export function ActivityTable({ data, bucketMs }: { data: ActivitySeries; bucketMs: number }) {
  return (
    <details class="chart-data">
      <summary>Show the activity as a table</summary>
      <div class="table-scroll">
        <table class="table" data-testid="activity-table">
          <caption class="visually-hidden">Events per bucket, in total and per page</caption>
          <thead>
            <tr>
              <th scope="col">Bucket</th>
              <th scope="col" class="num">Events</th>
              {data.series.map((s) => <th key={s.label} scope="col" class="num">{s.label}</th>)}
            </tr>
          </thead>
          <tbody>
            {data.starts.map((start, i) => (
              <tr key={start} data-bucket={new Date(start).toISOString()}>
                <th scope="row">{bucketLabel(start, bucketMs)}</th>
                <td class="num" data-total={data.totals[i]}>{formatCount(data.totals[i])}</td>
                {data.series.map((s) => (
                  <td key={s.label} class="num">{formatCount(s.counts[i])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
