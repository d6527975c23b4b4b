// /settings/organization: the overview. Switching, creating, renaming and deleting organizations
// live here; the members, invites and projects sections come from their own pages (members.tsx,
// invites.tsx, projects.tsx), and this page accepts their forms too, so everything can be done
// from one place.
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { ConfirmForm } from "@/components/ui/ConfirmForm.tsx";
import { OrganizationFrame } from "@/components/organizations/OrganizationFrame.tsx";
import { activeOrganization } from "@/core/org_access.ts";
import {
  createOrganization,
  DELETE_ORGANIZATION_PHRASE,
  deleteOrganization,
  organizationsWithActive,
  renameOrganization,
  switchOrganization,
} from "@/core/organizations/organizations.ts";
import {
  deleteOrganizationBody,
  type InviteView,
  type MembershipView,
  organizationNameBody,
  type OrganizationView,
  switchOrganizationBody,
} from "@/core/organizations/schema.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import { atLeast } from "@/core/permissions.ts";
import { formPage } from "@/http/form_page.ts";
import { type Actions, type FormFailure, parseForm } from "@/http/forms.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";
import { INVITE_NOTICES, inviteActions, InvitesSection, loadInvites } from "./invites.tsx";
import { loadMembers, MEMBER_NOTICES, memberActions, MembersSection } from "./members.tsx";
import { loadProjects, PROJECT_NOTICES, projectActions, ProjectsSection } from "./projects.tsx";
import { settleAll } from "@/http/settle_all.ts";

const NOTICES: Record<string, string> = {
  switched: "Switched organization.",
  created: "Organization created.",
  joined: "You joined the organization.",
  renamed: "Organization renamed.",
  deleted: "Organization deleted.",
  ...MEMBER_NOTICES,
  ...INVITE_NOTICES,
  ...PROJECT_NOTICES,
};

function organizationActions({ deps, viewer }: DashboardState): Actions {
  return {
    switch: async (form) => {
      await switchOrganization(deps, viewer, parseForm(switchOrganizationBody, form));
      return "switched";
    },
    create: async (form) => {
      const created = await createOrganization(deps, viewer, parseForm(organizationNameBody, form));
      await switchOrganization(deps, viewer, { organizationId: created.id });
      return "created";
    },
    rename: async (form) => {
      const input = parseForm(organizationNameBody, form);
      await renameOrganization(deps, viewer, {
        organizationId: activeOrganization(viewer),
        ...input,
      });
      return "renamed";
    },
    delete: async (form) => {
      const input = parseForm(deleteOrganizationBody, form);
      await deleteOrganization(deps, viewer, {
        organizationId: activeOrganization(viewer),
        ...input,
      });
      return "deleted";
    },
  };
}

interface Data {
  organizations: OrganizationView[];
  active: OrganizationView | null;
  members: MembershipView[];
  invites: InviteView[];
  projects: ProjectView[];
  failure?: FormFailure;
}

async function load({ state }: FreshContext<DashboardState>): Promise<Data> {
  const { organizations, active } = await organizationsWithActive(state.deps, state.viewer);
  if (!active) return { organizations, active, members: [], invites: [], projects: [] };
  const [members, invites, projects] = await settleAll([
    loadMembers(state, active.id),
    loadInvites(state, active.id),
    loadProjects(state, active.id),
  ]);
  return { organizations, active, members, invites, projects };
}

export const handler = formPage(load, ({ state }) => ({
  ...organizationActions(state),
  ...memberActions(state),
  ...inviteActions(state),
  ...projectActions(state),
}));

export default function Overview({ data, url, state }: PageProps<Data, DashboardState>) {
  const { organizations, active, failure } = data;
  const others = organizations.filter((o) => !o.active);
  return (
    <OrganizationFrame active={active} url={url} notices={NOTICES} failure={failure}>
      <section class="card stack" aria-labelledby="switch-heading">
        <h2 id="switch-heading">Organizations</h2>
        {others.length > 0 && (
          <form method="post" class="row">
            <label for="switch-org">Switch to</label>
            <select id="switch-org" name="organizationId">
              {others.map((o) => <option key={o.id} value={o.id}>{o.name} ({o.role})</option>)}
            </select>
            <button type="submit" name="intent" value="switch">Switch</button>
          </form>
        )}
        <form method="post" class="row">
          <label for="new-org">New organization</label>
          <input id="new-org" name="name" required maxLength={80} />
          <button type="submit" name="intent" value="create">Create</button>
        </form>
      </section>

      {active && atLeast(active.role, "ADMIN") && (
        <section class="card stack" aria-labelledby="rename-heading">
          <h2 id="rename-heading">Name</h2>
          <form method="post" class="row">
            <label for="org-name" class="visually-hidden">Organization name</label>
            <input id="org-name" name="name" value={active.name} required maxLength={80} />
            <button type="submit" name="intent" value="rename">Rename</button>
          </form>
        </section>
      )}

      {active && (
        <>
          <MembersSection active={active} members={data.members} viewerId={state.viewer.userId} />
          <InvitesSection active={active} invites={data.invites} />
          <ProjectsSection active={active} projects={data.projects} />
        </>
      )}

      {active?.role === "OWNER" && (
        <section class="card stack danger-zone" aria-labelledby="delete-org-heading">
          <h2 id="delete-org-heading">Delete organization</h2>
          <ConfirmForm
            id="delete-org"
            intent="delete"
            phrase={DELETE_ORGANIZATION_PHRASE}
            action={`Delete ${active.name}`}
          >
            <p>Its projects, recordings, members and invites are deleted with it.</p>
          </ConfirmForm>
        </section>
      )}
    </OrganizationFrame>
  );
}
