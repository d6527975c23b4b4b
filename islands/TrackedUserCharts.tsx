// The tracked user's charts for one window (6 h, 24 h or 7 d, kept in the URL): the timeline of
// sessions and the activity (summary, stacked events, page shares). Both read /api; the page
// colours are worked out once from both answers so a page has one colour everywhere here.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { TrackedUserActivity, TrackedUserTimeline } from "@/core/tracked_users/schema.ts";
import type { Range } from "@/core/tracked_users/timeline.ts";
import { ActivityChart } from "@/components/tracked_users/detail/ActivityChart.tsx";
import { ActivitySummary } from "@/components/tracked_users/detail/ActivitySummary.tsx";
import { ChartLegend } from "@/components/tracked_users/detail/ChartLegend.tsx";
import { ChartStatus } from "@/components/tracked_users/detail/ChartStatus.tsx";
import { PageShares } from "@/components/tracked_users/detail/PageShares.tsx";
import { pageColors } from "@/charts/page_colors.ts";
import { Timeline } from "@/components/tracked_users/detail/Timeline.tsx";
import { TruncatedNotice } from "@/components/tracked_users/detail/TruncatedNotice.tsx";
import { type Loaded, useApi } from "@/hooks/use_api.ts";
import { WINDOWS, WindowSwitch } from "@/components/tracked_users/detail/WindowSwitch.tsx";
import { readTrackedUserQuery, trackedUserHref } from "@/page_state/tracked_user.ts";

interface Props {
  userId: string;
  range: Range;
}

/** Pages coloured on screen, most important first: by time, then by events. */
const TOP_PAGES = 6;

export default function TrackedUserCharts(props: Props) {
  const [range, setRange] = useState(props.range);
  useEffect(() => {
    const onPop = () => setRange(rangeIn(location.href) ?? props.range);
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  const base = `/api/tracked-users/${encodeURIComponent(props.userId)}`;
  const [timeline, retryTimeline] = useApi<TrackedUserTimeline>(`${base}/timeline?range=${range}`);
  const [activity, retryActivity] = useApi<TrackedUserActivity>(
    `${base}/activity?range=${range}&pageLimit=${TOP_PAGES}`,
  );
  const coloured = topPages(timeline, activity);
  // Keyed by the list, so a chart redraws only when the colours really change.
  const colors = useMemo(() => pageColors(coloured), [coloured.join("\n")]);
  const label = WINDOWS.find(([value]) => value === range)![1];
  const href = (r: Range) => trackedUserHref(props.userId, { range: r });
  const choose = (r: Range, event: MouseEvent) => {
    event.preventDefault();
    if (r === range) return;
    history.pushState(null, "", href(r));
    setRange(r);
  };
  // The timeline waits for the activity (or its failure) so its colours never change under it.
  const timelineShown: Loaded<TrackedUserTimeline> = activity.state === "loading" &&
      timeline.state === "ready"
    ? { state: "loading" }
    : timeline;

  return (
    <div class="user-charts" data-range={range}>
      <div class="section-bar">
        <h2 class="visually-hidden">Activity window</h2>
        <WindowSwitch range={range} href={href} onChoose={choose} />
        <span class="muted small">Times in your time zone</span>
      </div>
      <section class="card stack" aria-labelledby="timeline-heading" data-testid="timeline">
        <div class="section-head">
          <h2 id="timeline-heading">Timeline</h2>
          <span class="muted small">Sessions in the last {label}; click a page to replay it</span>
        </div>
        <ChartStatus
          loaded={timelineShown}
          what="the timeline"
          onRetry={retryTimeline}
          height="7rem"
        />
        {timelineShown.state === "ready" && (
          <>
            <TruncatedNotice timeline={timelineShown.data} />
            {timelineShown.data.sessions.length === 0
              ? <p class="chart-empty muted">No sessions in the last {label}.</p>
              : <Timeline timeline={timelineShown.data} colors={colors} />}
            <ChartLegend
              colors={colors}
              extra={[
                { label: "Other pages", className: "swatch-other" },
                { label: "Idle in a session", className: "swatch-idle" },
                { label: "Idle between sessions", className: "swatch-gap" },
              ]}
            />
          </>
        )}
      </section>
      <section class="card stack" aria-labelledby="activity-heading" data-testid="activity">
        <div class="section-head">
          <h2 id="activity-heading">Activity</h2>
          <span class="muted small">Last {label}</span>
        </div>
        <ChartStatus loaded={activity} what="the activity" onRetry={retryActivity} height="18rem" />
        {activity.state === "ready" && (
          <>
            <ActivitySummary summary={activity.data.summary} />
            <div class="activity-grid">
              <div class="stack">
                <h3>Events</h3>
                <ActivityChart activity={activity.data} colors={colors} />
              </div>
              <div class="stack">
                <h3>Time per page</h3>
                <PageShares pages={activity.data.pageDistribution} colors={colors} />
              </div>
            </div>
          </>
        )}
      </section>
    </div>
  );
}

/** The window of a tracked user's page URL; null when it names none the page knows. */
function rangeIn(href: string): Range | null {
  try {
    return readTrackedUserQuery(new URL(href)).range;
  } catch {
    return null;
  }
}

function topPages(
  timeline: Loaded<TrackedUserTimeline>,
  activity: Loaded<TrackedUserActivity>,
): string[] {
  if (activity.state !== "ready") {
    return timeline.state === "ready" ? timeline.data.pages.slice(0, TOP_PAGES) : [];
  }
  const byTime = activity.data.pageDistribution.slice(0, TOP_PAGES).map((p) => p.pathname);
  const byEvents = activity.data.buckets.flatMap((b) => b.byPage.map((p) => p.pathname));
  return [...new Set([...byTime, ...byEvents])];
}
