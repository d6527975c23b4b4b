// /settings/organization/projects: the active organization's projects. ADMIN renames; OWNER
// creates, regenerates keys and deletes. The overview (index.tsx) shows the same section and
// accepts the same forms.
import { projectHref } from "@/page_state/projects.ts";
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { OrganizationFrame } from "@/components/organizations/OrganizationFrame.tsx";
import { ProjectList } from "@/components/projects/ProjectList.tsx";
import { activeOrganization } from "@/core/org_access.ts";
import { organizationsWithActive } from "@/core/organizations/organizations.ts";
import type { OrganizationView } from "@/core/organizations/schema.ts";
import {
  createProject,
  deleteProject,
  listProjects,
  regenerateProjectKey,
  updateProject,
} from "@/core/projects/projects.ts";
import {
  projectDeleteForm,
  projectForm,
  projectNameForm,
  projectRenameForm,
  projectTraitKeyForm,
  type ProjectView,
} from "@/core/projects/schema.ts";
import { formPage } from "@/http/form_page.ts";
import { type Actions, type FormFailure, parseForm, seeOther } from "@/http/forms.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

export const PROJECT_NOTICES: Record<string, string> = {
  "project-renamed": "Project renamed.",
  "trait-key-saved": "Default display-name trait saved.",
  "key-regenerated": "New key generated: the old one no longer works.",
  "project-deleted": "Project deleted.",
};

export function projectActions({ deps, viewer }: DashboardState): Actions {
  return {
    "create-project": async (form) => {
      const input = {
        organizationId: activeOrganization(viewer),
        ...parseForm(projectNameForm, form),
      };
      const project = await createProject(deps, viewer, input);
      return seeOther(projectHref(project.id, "setup"));
    },
    "rename-project": async (form) => {
      const { projectId, name } = parseForm(projectRenameForm, form);
      await updateProject(deps, viewer, { id: projectId, name });
      return "project-renamed";
    },
    "set-trait-key": async (form) => {
      const { projectId, traitKey } = parseForm(projectTraitKeyForm, form);
      await updateProject(deps, viewer, { id: projectId, displayNameTraitKey: traitKey });
      return "trait-key-saved";
    },
    "regenerate-key": async (form) => {
      const { projectId } = parseForm(projectForm, form);
      await regenerateProjectKey(deps, viewer, { id: projectId });
      return "key-regenerated";
    },
    "delete-project": async (form) => {
      const { projectId, confirmation } = parseForm(projectDeleteForm, form);
      await deleteProject(deps, viewer, { id: projectId, confirmation });
      return "project-deleted";
    },
  };
}

export function loadProjects({ deps, viewer }: DashboardState, organizationId: string) {
  return listProjects(deps, viewer, { organizationId });
}

interface SectionProps {
  active: OrganizationView;
  projects: ProjectView[];
}

export function ProjectsSection({ active, projects }: SectionProps) {
  return (
    <section class="card stack" aria-labelledby="projects-heading">
      <h2 id="projects-heading">Projects</h2>
      <ProjectList projects={projects} role={active.role} />
      {active.role === "OWNER" && (
        <form method="post" class="row">
          <label for="new-project">New project</label>
          <input id="new-project" name="name" required maxLength={80} />
          <button type="submit" name="intent" value="create-project">Create project</button>
        </form>
      )}
    </section>
  );
}

interface Data {
  active: OrganizationView | null;
  projects: ProjectView[];
  failure?: FormFailure;
}

async function load({ state }: FreshContext<DashboardState>): Promise<Data> {
  const { active } = await organizationsWithActive(state.deps, state.viewer);
  return { active, projects: active ? await loadProjects(state, active.id) : [] };
}

export const handler = formPage(load, ({ state }) => projectActions(state));

export default function ProjectsPage({ data, url }: PageProps<Data, DashboardState>) {
  const { active, projects, failure } = data;
  return (
    <OrganizationFrame active={active} url={url} notices={PROJECT_NOTICES} failure={failure}>
      {active && <ProjectsSection active={active} projects={projects} />}
    </OrganizationFrame>
  );
}
