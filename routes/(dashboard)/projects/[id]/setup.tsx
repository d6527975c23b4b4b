// /projects/[id]/setup: how to add the recorder to a project's site, its SDK snippet with the key
// (the full key for OWNERs only).
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { getProject, revealProjectKey } from "@/core/projects/projects.ts";
import { orNull } from "@/http/found.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import { SdkSnippet, SnippetPlacement } from "@/components/projects/SdkSnippet.tsx";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

interface Data {
  project: ProjectView;
  appUrl: string;
  /** The full key, for OWNERs only; others see the masked key. */
  key: string | null;
}

export default function Setup({ data }: PageProps<Data, DashboardState>) {
  const { project, appUrl, key } = data;
  return (
    <>
      <Head>
        <title>Set up {project.name} · Playhead</title>
      </Head>
      <h1>Set up {project.name}</h1>
      <section class="card stack" aria-labelledby="snippet-heading">
        <h2 id="snippet-heading">Add the recorder to your site</h2>
        <p>
          Paste this <SnippetPlacement />. Sessions appear here as soon as the first batch arrives.
        </p>
        <SdkSnippet appUrl={appUrl} maskedKey={project.maskedKey} fullKey={key} />
      </section>
      <p>
        <a href="/settings/organization">All projects</a>
      </p>
    </>
  );
}

export const handler: Handlers<Data, DashboardState> = {
  async GET(_req, ctx) {
    const { deps, viewer } = ctx.state;
    if (!viewer.activeOrganizationId) return ctx.renderNotFound();
    const project = await orNull(getProject(deps, viewer, { id: ctx.params.id }));
    if (!project) return ctx.renderNotFound();
    const key = viewer.role === "OWNER"
      ? (await revealProjectKey(deps, viewer, { id: project.id })).key
      : null;
    const data = { project, appUrl: deps.config.appUrl, key };
    return ctx.render(data);
  },
};
