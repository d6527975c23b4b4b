// /insights (docs/decisions.md "Insights"): where the active organization's sessions went wrong in
// a range, the elements people rage- and dead-click, the errors they meet, the endpoints that
// fail them, the pages where it happens, and a trend (per day, or per hour today); every row links
// to the sessions it counts.
import { asset, Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { ProjectPicker } from "@/components/ui/ProjectPicker.tsx";
import { NoOrganization } from "@/components/frame/NoOrganization.tsx";
import {
  ElementTable,
  EndpointTable,
  ErrorTable,
  type LinkScope,
  PageTable,
} from "@/components/insights/InsightsTables.tsx";
import { TrendTable } from "@/components/insights/TrendTable.tsx";
import { insightsOf } from "@/core/insights/insights.ts";
import type { Insights, InsightsInput } from "@/core/insights/schema.ts";
import { insightsHref, readInsightsQuery } from "@/page_state/insights.ts";
import { listProjects } from "@/core/projects/projects.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import InsightsTrend from "@/islands/InsightsTrend.tsx";
import { badRequest } from "@/http/found.ts";
import type { DashboardState } from "./_middleware.ts";
import { settleAll } from "@/http/settle_all.ts";
import { DEFAULT_RETENTION_DAYS } from "@/core/projects/schema.ts";
import { startOfUtcDay } from "@/core/sessions/list.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** How long sessions are kept: "All time" is that long at most. */
/** The window of "All time" when no older day has rows: the default retention. */
const KEPT_DAYS = DEFAULT_RETENTION_DAYS;
const RANGES = [
  ["today", "Today"],
  ["7d", "Last 7 days"],
  ["30d", "Last 30 days"],
  ["all", "All time (as kept)"],
] as const;

interface Data {
  kind: "insights";
  scope: LinkScope;
  projects: ProjectView[];
  insights: Insights;
  /** The trend's points: a day each, or an hour each today. */
  by: "day" | "hour";
  from: string;
  to: string;
  renderedAt: string;
}

export default function InsightsPage(
  { data }: PageProps<Data | { kind: "no-organization" }, DashboardState>,
) {
  return (
    <>
      <Head>
        <title>Insights · Playhead</title>
        <link rel="stylesheet" href={asset("/build/vendor/uplot.css")} />
      </Head>
      <div class="page-head">
        <div>
          <h1>Insights</h1>
          <p>
            Where visitors got stuck: rage clicks, dead clicks, errors and failed requests, and
            their sessions.
          </p>
        </div>
      </div>
      {data.kind === "no-organization" ? <NoOrganization /> : <Body data={data} />}
    </>
  );
}

function Body({ data }: { data: Data }) {
  const { scope, insights, projects } = data;
  const alertProject = scope.projectIds?.[0] ?? projects[0]?.id;
  const now = new Date(data.renderedAt);
  return (
    <div class="stack">
      <section class="card card-flush" aria-label="Insights range">
        <form method="get" action={insightsHref()} class="filters" aria-label="Insights range">
          <ProjectPicker projects={projects} selected={scope.projectIds ?? []} />
          <label class="field">
            <span>Range</span>
            <select name="range">
              {RANGES.map(([value, label]) => (
                <option key={value} value={value} selected={scope.range === value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <div class="row">
            <button type="submit">Apply</button>
          </div>
        </form>
        <div class="insights-section">
          <h2>{data.by === "hour" ? "Signals per hour today (UTC)" : "Signals per day"}</h2>
          {scope.range === "all" && (
            <p class="muted">
              All time is every session still kept: each project keeps its sessions for its
              retention ({KEPT_DAYS} days unless its settings say otherwise), pinned ones longer.
            </p>
          )}
          <InsightsTrend
            daily={insights.daily}
            hourly={insights.hourly}
            by={data.by}
            from={data.from}
            to={data.to}
          />
          <TrendTable daily={insights.daily} hourly={insights.hourly} by={data.by} />
        </div>
      </section>
      <div class="insights-grid">
        <section class="card stack" aria-labelledby="rage-heading">
          <h2 id="rage-heading">Rage-clicked elements</h2>
          <ElementTable
            alertProject={alertProject}
            rows={insights.rageClicks}
            kind="rage_click"
            scope={scope}
            now={now}
            empty="No rage clicks in this range."
          />
        </section>
        <section class="card stack" aria-labelledby="dead-heading">
          <h2 id="dead-heading">Dead-clicked elements</h2>
          <ElementTable
            alertProject={alertProject}
            rows={insights.deadClicks}
            kind="dead_click"
            scope={scope}
            now={now}
            empty="No dead clicks in this range."
          />
        </section>
        <section class="card stack insights-wide" aria-labelledby="errors-heading">
          <h2 id="errors-heading">Errors</h2>
          <ErrorTable rows={insights.errors} scope={scope} now={now} alertProject={alertProject} />
        </section>
        <section class="card stack insights-wide" aria-labelledby="endpoints-heading">
          <h2 id="endpoints-heading">Failing endpoints</h2>
          <EndpointTable
            rows={insights.endpoints}
            scope={scope}
            now={now}
            alertProject={alertProject}
          />
        </section>
        <section class="card stack insights-wide" aria-labelledby="pages-heading">
          <h2 id="pages-heading">Pages with the most signals</h2>
          <PageTable rows={insights.pages} scope={scope} alertProject={alertProject} />
        </section>
      </div>
    </div>
  );
}

export const handler: Handlers<Data | { kind: "no-organization" }, DashboardState> = {
  async GET(_req, ctx) {
    const { deps, viewer } = ctx.state;
    if (!viewer.activeOrganizationId) return ctx.render({ kind: "no-organization" });
    let input: InsightsInput;
    try {
      input = readInsightsQuery(ctx.url);
    } catch (error) {
      return badRequest(error);
    }
    const now = new Date();
    const [projects, insights] = await settleAll([
      listProjects(deps, viewer, { organizationId: viewer.activeOrganizationId }),
      insightsOf(deps, viewer, input, now),
    ]);
    return ctx.render({
      kind: "insights",
      scope: { range: input.range, projectIds: input.projectIds },
      projects,
      insights,
      ...trendSpan(input.range, insights.daily, now),
      renderedAt: now.toISOString(),
    });
  },
};

/**
 * The trend's first and last points: today's hours up to now's; else the range's days up to
 * today's, all time's from its first day with signals, or as far back as sessions are kept.
 */
function trendSpan(range: InsightsInput["range"], daily: Insights["daily"], now: Date) {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  if (range === "today") {
    const hour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    return {
      by: "hour" as const,
      from: startOfUtcDay(now).toISOString(),
      to: new Date(hour).toISOString(),
    };
  }
  const days = range === "7d" ? 7 : range === "30d" ? 30 : KEPT_DAYS;
  const from = day(now.getTime() - days * DAY_MS);
  return {
    by: "day" as const,
    from: range === "all" && daily.length && daily[0].day < from ? daily[0].day : from,
    to: day(now.getTime()),
  };
}
