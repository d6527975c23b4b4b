// /users: the active organization's tracked users, filtered and sorted by the URL's query
// (page_state/tracked_users.ts), with live KPIs; how to identify users while none is tracked.
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { NoOrganization } from "@/components/frame/NoOrganization.tsx";
import { Notice } from "@/components/ui/Notice.tsx";
import {
  isFiltered,
  readTrackedUsersQuery,
  trackedUsersApiPath,
  trackedUsersHref,
} from "@/page_state/tracked_users.ts";
import { TrackedUserFilters } from "@/components/tracked_users/TrackedUserFilters.tsx";
import { TrackedUsersEmpty } from "@/components/tracked_users/TrackedUsersEmpty.tsx";
import { trackedUserList, trackedUserSummary } from "@/core/tracked_users/list.ts";
import type {
  TrackedUserItem,
  TrackedUserListInput,
  TrackedUserSummary,
} from "@/core/tracked_users/schema.ts";
import TrackedUserTable from "@/islands/TrackedUserTable.tsx";
import TrackedUsersKpis from "@/islands/TrackedUsersKpis.tsx";
import { badRequest } from "@/http/found.ts";
import { settleAll } from "@/http/settle_all.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

interface ListData {
  kind: "list";
  query: TrackedUserListInput;
  summary: TrackedUserSummary;
  users: TrackedUserItem[];
  nextCursor: string | null;
  renderedAt: string;
  refreshMs: number;
}

type Data = ListData | { kind: "empty"; appUrl: string } | { kind: "no-organization" };

const NOTICES = {
  "user-erased": "The user and all their sessions were erased.",
  "user-deleted": "The user was deleted; their sessions stay, as anonymous sessions.",
};

export default function TrackedUsersPage({ data, url }: PageProps<Data, DashboardState>) {
  return (
    <>
      <Head>
        <title>Users · Playhead</title>
      </Head>
      <div class="page-head">
        <div>
          <h1>Users</h1>
          <p>The people behind your sessions: who is online now, who comes back, who went quiet.</p>
        </div>
      </div>
      <Notice url={url} notices={NOTICES} />
      {data.kind === "no-organization" && <NoOrganization />}
      {data.kind === "empty" && <TrackedUsersEmpty appUrl={data.appUrl} />}
      {data.kind === "list" && <TrackedUsersList data={data} />}
    </>
  );
}

function TrackedUsersList({ data }: { data: ListData }) {
  const { query, users } = data;
  const next = data.nextCursor ? trackedUsersHref({ ...query, cursor: data.nextCursor }) : null;
  return (
    <>
      <TrackedUsersKpis summary={data.summary} refreshMs={data.refreshMs} />
      <section class="card card-flush" aria-label="Users list">
        <TrackedUserFilters query={query} />
        {users.length === 0
          ? (
            <div class="empty" data-testid="users-no-match">
              <h2>No users match</h2>
              <p>
                {query.cursor
                  ? "This page is past the end of the list."
                  : "Try another status or a shorter search."}
              </p>
              <a class="button" href={trackedUsersHref()}>Clear filters</a>
            </div>
          )
          : (
            <TrackedUserTable
              users={users}
              nextCursor={data.nextCursor}
              apiPath={trackedUsersApiPath(query)}
              nextHref={next}
              renderedAt={data.renderedAt}
              refreshMs={data.refreshMs}
            />
          )}
      </section>
    </>
  );
}

export const handler: Handlers<Data, DashboardState> = {
  async GET(_req, ctx) {
    const { deps, viewer } = ctx.state;
    if (!viewer.activeOrganizationId) return ctx.render({ kind: "no-organization" });
    let query: TrackedUserListInput;
    try {
      query = readTrackedUsersQuery(ctx.url);
    } catch (error) {
      return badRequest(error);
    }
    const now = new Date();
    // Both settle before answering, so a refused cursor leaves no query running behind the 400.
    const reads = await settleAll([
      trackedUserSummary(deps, viewer, now),
      trackedUserList(deps, viewer, query, now),
    ]).catch(badRequest); // a malformed cursor; any other error goes on
    if (reads instanceof Response) return reads;
    const [summary, page] = reads;
    if (summary.total === 0 && !isFiltered(query)) {
      return ctx.render({ kind: "empty", appUrl: deps.config.appUrl });
    }
    return ctx.render({
      kind: "list",
      query,
      summary,
      users: page.data,
      nextCursor: page.nextCursor,
      renderedAt: now.toISOString(),
      refreshMs: deps.config.liveRefreshMs,
    });
  },
};
