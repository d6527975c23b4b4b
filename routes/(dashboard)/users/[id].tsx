// /users/[id]: one tracked user. Header and traits, the charts for a window from the URL (an
// island reading /api), their sessions with "Load more"; ADMIN+ name, export, erase and delete the
// user.
import { asset, Head } from "$fresh/runtime.ts";
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { Notice } from "@/components/ui/Notice.tsx";
import { ManageTrackedUser } from "@/components/tracked_users/detail/ManageTrackedUser.tsx";
import {
  readTrackedUserQuery,
  SESSIONS_PAGE_SIZE,
  trackedUserHref,
  type TrackedUserPageQuery,
  trackedUserSessionsApiPath,
} from "@/page_state/tracked_user.ts";
import { trackedUsersHref } from "@/page_state/tracked_users.ts";
import { TraitsTable } from "@/components/tracked_users/detail/TraitsTable.tsx";
import { TrackedUserHeader } from "@/components/tracked_users/detail/TrackedUserHeader.tsx";
import { atLeast } from "@/core/permissions.ts";
import { listProjects } from "@/core/projects/projects.ts";
import type { SessionListItem } from "@/core/sessions/schema.ts";
import {
  removeTrackedUser,
  setDisplayName,
  trackedUserDetail,
} from "@/core/tracked_users/detail.ts";
import { eraseTrackedUser } from "@/core/tracked_users/erase.ts";
import { displayNameForm, type TrackedUserDetail } from "@/core/tracked_users/schema.ts";
import { trackedUserSessions } from "@/core/tracked_users/sessions.ts";
import SessionTable from "@/islands/SessionTable.tsx";
import TrackedUserCharts from "@/islands/TrackedUserCharts.tsx";
import { orNull } from "@/http/found.ts";
import { formPage } from "@/http/form_page.ts";
import { type Actions, type FormFailure, parseForm, seeOther } from "@/http/forms.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";
import { settleAll } from "@/http/settle_all.ts";
import { titleText } from "@/utils/format.ts";

interface Data {
  user: TrackedUserDetail;
  projectTraitKey: string | null;
  query: TrackedUserPageQuery;
  sessions: SessionListItem[];
  nextCursor: string | null;
  canManage: boolean;
  renderedAt: string;
  refreshMs: number;
  failure?: FormFailure;
}

const NOTICES = { "name-saved": "Display name saved." };

export default function TrackedUserPage({ data, url }: PageProps<Data, DashboardState>) {
  const { user, query, canManage } = data;
  return (
    <>
      <Head>
        <title>{titleText(user.displayName)} · Users · Playhead</title>
        <link rel="stylesheet" href={asset("/build/vendor/uplot.css")} />
      </Head>
      <Notice url={url} notices={NOTICES} failure={data.failure} />
      <TrackedUserHeader user={user} renderedAt={data.renderedAt} refreshMs={data.refreshMs} />
      <div class={canManage ? "user-grid" : undefined}>
        <section class="card stack" aria-labelledby="traits-heading">
          <h2 id="traits-heading">Traits</h2>
          <TraitsTable traits={user.traits} namingKey={namingKey(user, data.projectTraitKey)} />
        </section>
        {canManage && (
          <section class="card stack" aria-label="Manage this user" data-testid="manage-user">
            <ManageTrackedUser user={user} projectTraitKey={data.projectTraitKey} />
          </section>
        )}
      </div>
      <TrackedUserCharts userId={user.id} range={query.range} />
      <section id="sessions" class="card card-flush" aria-labelledby="sessions-heading">
        <div class="section-head card-head">
          <h2 id="sessions-heading">Sessions</h2>
          <span class="muted small">Newest first</span>
        </div>
        {data.sessions.length === 0
          ? <p class="empty">{query.cursor ? "No more sessions." : "No sessions recorded."}</p>
          : (
            <SessionTable
              sessions={data.sessions}
              nextCursor={data.nextCursor}
              apiPath={trackedUserSessionsApiPath(user.id)}
              nextHref={data.nextCursor &&
                `${trackedUserHref(user.id, { ...query, cursor: data.nextCursor })}#sessions`}
              showUser={false}
              canDelete={canManage}
              renderedAt={data.renderedAt}
            />
          )}
      </section>
    </>
  );
}

/** The trait the display name comes from (docs/decisions.md "Sessions", display-name chain). */
function namingKey(user: TrackedUserDetail, projectKey: string | null): string | null {
  if (user.customName) return null;
  const filled = (key: string | null) => {
    const value = key === null ? undefined : user.traits[key];
    return value !== undefined && value !== null && String(value).trim() !== "";
  };
  if (filled(user.displayNameTraitKey)) return user.displayNameTraitKey;
  return filled(projectKey) ? projectKey : null;
}

async function load(ctx: FreshContext<DashboardState>): Promise<Data | null> {
  const { deps, viewer } = ctx.state;
  if (!viewer.activeOrganizationId) return null;
  const query = readTrackedUserQuery(ctx.url);
  const user = await orNull(trackedUserDetail(deps, viewer, ctx.params.id));
  if (!user) return null;
  const [projects, page] = await settleAll([
    listProjects(deps, viewer, { organizationId: viewer.activeOrganizationId }),
    trackedUserSessions(deps, viewer, user.id, { cursor: query.cursor, limit: SESSIONS_PAGE_SIZE }),
  ]);
  return {
    user,
    projectTraitKey: projects.find((p) => p.id === user.projectId)?.displayNameTraitKey ?? null,
    query,
    sessions: page.data,
    nextCursor: page.nextCursor,
    canManage: atLeast(viewer.role ?? "VIEWER", "ADMIN"),
    renderedAt: new Date().toISOString(),
    refreshMs: deps.config.liveRefreshMs,
  };
}

function actions({ state: { deps, viewer }, params }: FreshContext<DashboardState>): Actions {
  return {
    "set-display-name": async (form) => {
      await setDisplayName(deps, viewer, params.id, parseForm(displayNameForm, form));
      return "name-saved";
    },
    "erase-user": async () => {
      await eraseTrackedUser(deps, viewer, params.id);
      return seeOther(`${trackedUsersHref()}?done=user-erased`);
    },
    "delete-user": async () => {
      await removeTrackedUser(deps, viewer, params.id);
      return seeOther(`${trackedUsersHref()}?done=user-deleted`);
    },
  };
}

// A bad window or cursor in the URL is a 400 (formPage).
export const handler = formPage(load, actions);
