// /sessions: the active organization's recorded sessions, filtered and sorted by the URL's query
// (page_state/sessions.ts), with KPIs and the saved searches (a form saves the page's filters:
// post/redirect/get); the setup snippet while nothing was recorded yet.
import { Head } from "$fresh/runtime.ts";
import type { FreshContext, Handlers, PageProps } from "$fresh/server.ts";
import { NoOrganization } from "@/components/frame/NoOrganization.tsx";
import { SessionFilters } from "@/components/sessions/SessionFilters.tsx";
import { SessionsEmpty } from "@/components/sessions/SessionsEmpty.tsx";
import { SavedSearches } from "@/components/sessions/SavedSearches.tsx";
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
import { createSavedSearch, listSavedSearches } from "@/core/saved_searches/saved_searches.ts";
import { createSavedSearchBody, type SavedSearchOut } from "@/core/saved_searches/schema.ts";
import { parseWith } from "@/core/validate.ts";
import { badRequest } from "@/http/found.ts";
import { type FormFailure, runAction, seeOther } from "@/http/forms.ts";
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
  saved: SavedSearchOut[];
  /** The page's URL, where its save form posts. */
  action: string;
  failure?: FormFailure;
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
      <SavedSearches searches={data.saved} action={data.action} failure={data.failure} />
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

type Context = FreshContext<DashboardState, Data>;

export const handler: Handlers<Data, DashboardState> = {
  GET: (_req, ctx) => show(ctx),
  /** "Save this search": the page's query under the name typed, then back to the page (303). */
  async POST(req, ctx) {
    const { deps, viewer } = ctx.state;
    const here = ctx.url.pathname + ctx.url.search;
    const actions = {
      "save-search": async (form: FormData) => {
        const input = parseWith(createSavedSearchBody, {
          name: String(form.get("name") ?? ""),
          query: ctx.url.search,
        }, "form");
        await createSavedSearch(deps, viewer, input);
        return seeOther(here);
      },
    };
    const rerender = (failure: FormFailure, status: number) => show(ctx, failure, status);
    return await runAction(req, ctx.url, actions, rerender, deps.config.http.bodyTimeoutMs);
  },
};

async function show(ctx: Context, failure?: FormFailure, status?: number): Promise<Response> {
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
    listSavedSearches(deps, viewer),
  ]).catch(badRequest); // a malformed cursor; any other error goes on
  if (reads instanceof Response) return reads;
  const [summary, page, browsers, saved] = reads;
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
    saved: saved.data,
    action: ctx.url.pathname + ctx.url.search,
    failure,
  }, { status });
}
