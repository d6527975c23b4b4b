// The window's numbers at a glance: sessions, time, events, pages and the first and last event.
import type { TrackedUserActivity } from "@/core/tracked_users/schema.ts";
import { formatCount, formatDuration } from "@/utils/format.ts";

const moment = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});

export function ActivitySummary({ summary }: { summary: TrackedUserActivity["summary"] }) {
  const when = (iso: string | null) => (iso ? moment.format(new Date(iso)) : "—");
  const items: [string, string, string?][] = [
    ["Sessions", formatCount(summary.sessionCount), "sum-sessions"],
    ["Active time", formatDuration(summary.totalActiveTime), "sum-active"],
    ["Average session", formatDuration(summary.avgSessionDuration)],
    ["Events", formatCount(summary.totalEvents), "sum-events"],
    ["Unique pages", formatCount(summary.uniquePages), "sum-pages"],
    ["Top page", summary.topPage ?? "—", "sum-top-page"],
    ["First event", when(summary.firstEventAt)],
    ["Last event", when(summary.lastEventAt)],
  ];
  return (
    <dl class="kpis kpis-compact" aria-label="The window in numbers">
      {items.map(([label, value, testId]) => (
        <div class="kpi" key={label}>
          <dt>{label}</dt>
          <dd data-testid={testId} title={value}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
