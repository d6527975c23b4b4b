// The start page. Signed in: the active organization's projects with what they recorded and a way
// into Sessions; signed out: what Playhead is and the way in. Both end with the service status.
import { sessionsHref } from "@/page_state/sessions.ts";
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import type { ServiceStatus } from "@/core/deps.ts";
import { NoOrganization } from "@/components/frame/NoOrganization.tsx";
import { ProjectOverview } from "@/components/projects/ProjectOverview.tsx";
import { StatusList } from "@/components/ui/StatusList.tsx";
import { listProjects } from "@/core/projects/projects.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import { formatCount, plural } from "@/utils/format.ts";
import HealthStatus from "@/islands/HealthStatus.tsx";
import type { State } from "./_middleware.ts";
import { settleAll } from "@/http/settle_all.ts";

interface Overview {
  organizationName: string;
  projects: ProjectView[];
  canCreate: boolean;
  renderedAt: string;
}

interface Data {
  status: ServiceStatus;
  /** null when signed out; "none" when the viewer has no active organization. */
  overview: Overview | "none" | null;
}

export default function Home({ data }: PageProps<Data, State>) {
  const { overview } = data;
  return (
    <>
      <Head>
        <title>{overview && overview !== "none" ? "Overview · Playhead" : "Playhead"}</title>
      </Head>
      {overview === null && <Welcome />}
      {overview === "none" && <NoOrganization />}
      {overview && overview !== "none" && <OrganizationOverview overview={overview} />}
      <section class="card stack" aria-labelledby="status-heading">
        <h2 id="status-heading">Service status</h2>
        <StatusList status={data.status} />
        <HealthStatus endpoint="/api/health" intervalMs={15_000} />
      </section>
    </>
  );
}

function Welcome() {
  return (
    <div class="page-head">
      <div>
        <h1>Playhead</h1>
        <p class="lead">Self-hosted session recording: see what your visitors saw, replay it.</p>
      </div>
      <a class="button button-primary" href="/signin">Sign in</a>
    </div>
  );
}

function OrganizationOverview({ overview }: { overview: Overview }) {
  const { projects } = overview;
  const sessions = projects.reduce((sum, p) => sum + p.sessionCount, 0);
  return (
    <>
      <div class="page-head">
        <div>
          <h1>{overview.organizationName}</h1>
          <p data-testid="overview-summary">
            {plural(projects.length, "project")} · {formatCount(sessions)} recorded session
            {sessions === 1 ? "" : "s"}
          </p>
        </div>
        {projects.length > 0 && (
          <a class="button button-primary" href={sessionsHref()}>Open Sessions</a>
        )}
      </div>
      <ProjectOverview
        projects={projects}
        now={new Date(overview.renderedAt)}
        canCreate={overview.canCreate}
      />
    </>
  );
}

export const handler: Handlers<Data, State> = {
  async GET(_req, ctx) {
    const { deps, viewer, organizations } = ctx.state;
    const organizationId = viewer?.activeOrganizationId;
    const [status, overview] = await settleAll([
      deps.status(),
      !viewer ? null : !organizationId ? "none" as const : listProjects(deps, viewer, {
        organizationId,
      }).then((projects): Overview => ({
        organizationName: organizations.find((o) => o.id === organizationId)?.name ?? "",
        projects,
        canCreate: viewer.role === "OWNER",
        renderedAt: new Date().toISOString(),
      })),
    ]);
    return ctx.render({ status, overview });
  },
};
