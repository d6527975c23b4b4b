// /projects/:id/settings: the project's recording, network and retention settings
// (docs/decisions.md "Capture control", "Network capture", "Retention per project"). ADMIN and
// OWNER change them; a VIEWER sees them read-only.
import { projectHref } from "@/page_state/projects.ts";
import { Head } from "$fresh/runtime.ts";
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { NetworkSettingsForm } from "@/components/projects/NetworkSettingsForm.tsx";
import { RecordingSettingsForm } from "@/components/projects/RecordingSettingsForm.tsx";
import { RetentionForm } from "@/components/projects/RetentionForm.tsx";
import { Notice } from "@/components/ui/Notice.tsx";
import { atLeast } from "@/core/permissions.ts";
import { getProject, sessionsPastRetention, updateProject } from "@/core/projects/projects.ts";
import {
  projectNetworkForm,
  projectRecordingForm,
  projectRetentionForm,
  type ProjectView,
} from "@/core/projects/schema.ts";
import { formPage } from "@/http/form_page.ts";
import { orNull } from "@/http/found.ts";
import { type FormFailure, parseForm } from "@/http/forms.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

const NOTICES = {
  "recording-saved": "Recording settings saved: new visits follow them.",
  "network-saved": "Network settings saved: new visits follow them.",
  "retention-saved": "Retention saved: the next daily cleanup follows it.",
};

interface Data {
  project: ProjectView;
  sessionsToDelete: number;
  editable: boolean;
  failure?: FormFailure;
}

export default function ProjectSettings({ data, url }: PageProps<Data, DashboardState>) {
  const { project, sessionsToDelete, editable, failure } = data;
  return (
    <>
      <Head>
        <title>{project.name} settings · Playhead</title>
      </Head>
      <h1>{project.name}</h1>
      <Notice url={url} notices={NOTICES} failure={failure} />
      <section class="card stack" aria-labelledby="recording-heading">
        <h2 id="recording-heading">Recording</h2>
        <RecordingSettingsForm recording={project.recording} editable={editable} />
      </section>
      <section class="card stack" aria-labelledby="network-heading">
        <h2 id="network-heading">Network and web vitals</h2>
        <NetworkSettingsForm network={project.network} editable={editable} />
      </section>
      <section class="card stack" aria-labelledby="retention-heading">
        <h2 id="retention-heading">Retention</h2>
        <RetentionForm
          retentionDays={project.retentionDays}
          sessionsToDelete={sessionsToDelete}
          editable={editable}
        />
      </section>
      <p>
        <a href={projectHref(project.id, "setup")}>Set up recording</a> ·{" "}
        <a href={projectHref(project.id, "alerts")}>Alerts</a> ·{" "}
        <a href="/settings/organization/projects">All projects</a>
      </p>
    </>
  );
}

async function load({ state, params }: FreshContext<DashboardState>): Promise<Data | null> {
  const { deps, viewer } = state;
  if (!viewer.activeOrganizationId) return null;
  const project = await orNull(getProject(deps, viewer, { id: params.id }));
  if (!project) return null;
  const sessionsToDelete = await sessionsPastRetention(deps, viewer, { id: project.id });
  const editable = viewer.role !== null && atLeast(viewer.role, "ADMIN");
  return { project, sessionsToDelete, editable };
}

export const handler = formPage(load, ({ state, params }) => ({
  "save-recording": async (form) => {
    const recording = parseForm(projectRecordingForm, form);
    await updateProject(state.deps, state.viewer, { id: params.id, recording });
    return "recording-saved";
  },
  "save-network": async (form) => {
    const network = parseForm(projectNetworkForm, form);
    await updateProject(state.deps, state.viewer, { id: params.id, network });
    return "network-saved";
  },
  "save-retention": async (form) => {
    const { retentionDays } = parseForm(projectRetentionForm, form);
    await updateProject(state.deps, state.viewer, { id: params.id, retentionDays });
    return "retention-saved";
  },
}));
