// /sessions: the active organization's recorded sessions, filtered and sorted by the URL's query
// (page_state/sessions.ts), with KPIs; the setup snippet while nothing was recorded yet.
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { NoOrganization } from "@/components/frame/NoOrganization.tsx";
import { SessionFilters } from "@/components/sessions/SessionFilters.tsx";
import { SessionsEmpty } from "@/components/sessions/SessionsEmpty.tsx";
import {
  isFiltered,
  readSessionsQuery,
  sessionsApiPath,
  sessionsHref,
} from "@/page_state/sessions.ts";
import SessionsKpis from "@/islands/SessionsKpis.tsx";
import { atLeast } from "@/core/permissions.ts";
import { listProjects, revealProjectKey } from "@/core/projects/projects.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import { sessionBrowsers, sessionList, sessionSummary } from "@/core/sessions/list.ts";
import type { SessionListInput, SessionListItem, SessionSummary } from "@/core/sessions/schema.ts";
import SessionTable from "@/islands/SessionTable.tsx";
import NewSessionsBar from "@/islands/NewSessionsBar.tsx";
import { badRequest } from "@/http/found.ts";
import { settleAll } from "@/http/settle_all.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

interface ListData {
  kind: "list";
  query: SessionListInput;
  projects: ProjectView[];
  browsers: string[];
  summary: SessionSummary;
  sessions: SessionListItem[];
  nextCursor: string | null;
  canDelete: boolean;
  renderedAt: string;
  /** How often the open list asks whether new sessions arrived. */
  refreshMs: number;
}

interface EmptyData {
  kind: "empty";
  project: ProjectView | null;
  fullKey: string | null;
  appUrl: string;
  isOwner: boolean;
}

type Data = ListData | EmptyData | { kind: "no-organization" };

export default function Sessions({ data }: PageProps<Data, DashboardState>) {
  return (
    <>
      <Head>
        <title>Sessions · Playhead</title>
      </Head>
      <div class="page-head">
        <div>
          <h1>Sessions</h1>
          <p>Every recorded visit, newest first. Open one to replay it.</p>
        </div>
      </div>
      {data.kind === "no-organization" && <NoOrganization />}
      {data.kind === "empty" && <SessionsEmpty {...data} />}
      {data.kind === "list" && <SessionsList data={data} />}
    </>
  );
}

function SessionsList({ data }: { data: ListData }) {
  const { query, summary, sessions } = data;
  const next = data.nextCursor ? sessionsHref({ ...query, cursor: data.nextCursor }) : null;
  const summaryPath = sessionsApiPath(query).replace("/api/sessions?", "/api/sessions/summary?");
  return (
    <>
      <SessionsKpis summary={summary} summaryPath={summaryPath} />
      <section class="card card-flush" aria-label="Sessions list">
        <SessionFilters query={query} projects={data.projects} browsers={data.browsers} />
        {!query.cursor && (
          <NewSessionsBar
            summaryPath={summaryPath}
            total={summary.totalSessions}
            intervalMs={data.refreshMs}
          />
        )}
        {sessions.length === 0
          ? (
            <div class="empty" data-testid="sessions-no-match">
              <h2>No sessions match</h2>
              <p>
                {query.cursor
                  ? "This page is past the end of the list."
                  : "Try a wider range or fewer filters."}
              </p>
              <a class="button" href={sessionsHref()}>Clear filters</a>
            </div>
          )
          : (
            <SessionTable
              sessions={sessions}
              nextCursor={data.nextCursor}
              apiPath={sessionsApiPath(query)}
              nextHref={next}
              showUser
              canDelete={data.canDelete}
              renderedAt={data.renderedAt}
            />
          )}
      </section>
    </>
  );
}

export const handler: Handlers<Data, DashboardState> = {
  async GET(_req, ctx) {
    const { deps, viewer } = ctx.state;
    const organizationId = viewer.activeOrganizationId;
    if (!organizationId) return ctx.render({ kind: "no-organization" });
    let query: SessionListInput;
    try {
      query = readSessionsQuery(ctx.url);
    } catch (error) {
      return badRequest(error);
    }
    const role = viewer.role ?? "VIEWER";
    const projects = await listProjects(deps, viewer, { organizationId });
    if (!isFiltered(query) && projects.every((p) => p.sessionCount === 0)) {
      const project = projects.at(-1) ?? null; // the oldest: usually the one set up first
      const isOwner = role === "OWNER";
      const fullKey = project && isOwner
        ? (await revealProjectKey(deps, viewer, { id: project.id })).key
        : null;
      return ctx.render({ kind: "empty", project, fullKey, appUrl: deps.config.appUrl, isOwner });
    }
    // All settle before answering, so a refused cursor leaves no query running behind the 400.
    const reads = await settleAll([
      sessionSummary(deps, viewer, query),
      sessionList(deps, viewer, query),
      sessionBrowsers(deps, viewer),
    ]).catch(badRequest); // a malformed cursor; any other error goes on
    if (reads instanceof Response) return reads;
    const [summary, page, browsers] = reads;
    return ctx.render({
      kind: "list",
      query,
      projects,
      browsers,
      summary,
      sessions: page.data,
      nextCursor: page.nextCursor,
      canDelete: atLeast(role, "ADMIN"),
      renderedAt: new Date().toISOString(),
      refreshMs: deps.config.liveRefreshMs,
    });
  },
};
