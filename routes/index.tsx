import type { Handlers, PageProps } from "$fresh/server.ts";
import type { ServiceStatus } from "../core/deps.ts";
import { ProjectLinks } from "../components/ProjectLinks.tsx";
import { StatusList } from "../components/StatusList.tsx";
import { listProjects } from "../core/projects/projects.ts";
import type { ProjectView } from "../core/projects/schema.ts";
import HealthStatus from "../islands/HealthStatus.tsx";
import type { State } from "./_middleware.ts";

interface Data {
  status: ServiceStatus;
  /** The active organization's projects; null when signed out. */
  projects: ProjectView[] | null;
}

export default function Home({ data }: PageProps<Data, State>) {
  return (
    <>
      <h1>Playhead</h1>
      <p class="lead">Self-hosted session recording.</p>
      {data.projects && <ProjectLinks projects={data.projects} />}
      <section class="card" aria-labelledby="status-heading">
        <h2 id="status-heading">Service status</h2>
        <StatusList status={data.status} />
        <HealthStatus endpoint="/api/health" intervalMs={15_000} />
      </section>
    </>
  );
}

export const handler: Handlers<Data, State> = {
  async GET(_req, ctx) {
    const { deps, viewer } = ctx.state;
    const organizationId = viewer?.activeOrganizationId;
    const [status, projects] = await Promise.all([
      deps.status(),
      viewer && organizationId ? listProjects(deps, viewer, { organizationId }) : null,
    ]);
    return ctx.render({ status, projects });
  },
};
