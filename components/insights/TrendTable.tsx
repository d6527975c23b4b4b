// The insights trend as a table, the chart's text alternative: a row per UTC day of the range with
// signals, or per hour of today.
import type { Insights } from "@/core/insights/schema.ts";
import { formatCount } from "@/utils/format.ts";

type Counts = Pick<Insights["daily"][number], "errors" | "rageClicks" | "deadClicks">;

export function TrendTable(
  { daily, hourly, by }: {
    daily: Insights["daily"];
    hourly: Insights["hourly"];
    by: "day" | "hour";
  },
) {
  const rows: (Counts & { label: string })[] = by === "hour"
    ? hourly.map((h) => ({ ...h, label: h.hour.slice(11, 16) }))
    : daily.map((d) => ({ ...d, label: d.day }));
  return (
    <details class="chart-table">
      <summary>{by === "hour" ? "Hours as a table" : "Days as a table"}</summary>
      <table class="table" data-testid="insights-daily">
        <thead>
          <tr>
            <th scope="col">{by === "hour" ? "Hour (UTC)" : "Day (UTC)"}</th>
            <th scope="col" class="num">Errors</th>
            <th scope="col" class="num">Rage clicks</th>
            <th scope="col" class="num">Dead clicks</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <td>{r.label}</td>
              <td class="num">{formatCount(r.errors)}</td>
              <td class="num">{formatCount(r.rageClicks)}</td>
              <td class="num">{formatCount(r.deadClicks)}</td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={4} class="muted">No signals in this range.</td>
            </tr>
          )}
        </tbody>
      </table>
    </details>
  );
}
