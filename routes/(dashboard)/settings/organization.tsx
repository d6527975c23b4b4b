import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { z } from "zod";
import { ConfirmForm } from "../../../components/ConfirmForm.tsx";
import { InviteList } from "../../../components/InviteList.tsx";
import { MemberList } from "../../../components/MemberList.tsx";
import { Notice } from "../../../components/Notice.tsx";
import { ProjectList } from "../../../components/ProjectList.tsx";
import {
  changeMemberRole,
  listMemberships,
  type MembershipView,
  removeMember,
} from "../../../core/members.ts";
import {
  createOrRefreshInvite,
  type InviteView,
  listInvites,
  refreshExistingInvite,
  revokeInvite,
} from "../../../core/invites.ts";
import { activeOrganization } from "../../../core/org_access.ts";
import {
  createOrganization,
  DELETE_ORGANIZATION_PHRASE,
  deleteOrganization,
  listOrganizations,
  type OrganizationView,
  renameOrganization,
  switchOrganization,
} from "../../../core/organizations.ts";
import {
  createProject,
  deleteProject,
  listProjects,
  type ProjectView,
  regenerateProjectKey,
  updateProject,
} from "../../../core/projects.ts";
import { atLeast } from "../../../core/permissions.ts";
import { type FormFailure, parseForm, runAction, seeOther } from "../../../utils/forms.ts";
import type { DashboardState } from "../_middleware.ts";

interface Data {
  organizations: OrganizationView[];
  /** null when the viewer has no active organisation. */
  active: OrganizationView | null;
  members: MembershipView[];
  invites: InviteView[];
  projects: ProjectView[];
  failure?: FormFailure;
}

const NOTICES: Record<string, string> = {
  switched: "Switched organization.",
  created: "Organization created.",
  joined: "You joined the organization.",
  renamed: "Organization renamed.",
  deleted: "Organization deleted.",
  role: "Role changed.",
  removed: "Member removed.",
  invited: "Invite sent.",
  "invite-resent": "Invite sent again.",
  "invite-revoked": "Invite revoked.",
  "project-renamed": "Project renamed.",
  "key-regenerated": "New key generated: the old one no longer works.",
  "project-deleted": "Project deleted.",
};

export default function Organization({ data, url, state }: PageProps<Data, DashboardState>) {
  const { organizations, active, members, invites, projects, failure } = data;
  const others = organizations.filter((o) => !o.active);
  return (
    <>
      <Head>
        <title>{active ? `${active.name} · Playhead` : "Organization · Playhead"}</title>
      </Head>
      <h1>{active ? active.name : "Organization"}</h1>
      {active && (
        <p class="muted">
          Your role: <span class="badge">{active.role}</span>
        </p>
      )}
      <Notice url={url} notices={NOTICES} failure={failure} />

      {!active && <p>You have no active organization. Switch to one or create one.</p>}

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
        <section class="card stack" aria-labelledby="members-heading">
          <h2 id="members-heading">Members</h2>
          <MemberList members={members} viewerId={state.viewer.userId} viewerRole={active.role} />
        </section>
      )}

      {active && (
        <section class="card stack" aria-labelledby="invites-heading">
          <h2 id="invites-heading">Invites</h2>
          <InviteList invites={invites} manage={atLeast(active.role, "ADMIN")} />
        </section>
      )}

      {active && (
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
    </>
  );
}

const name = z.string().trim().min(1).max(80);
const nameSchema = z.object({ name });
const idSchema = (field: string) => z.object({ [field]: z.string().min(1) });
const roleSchema = z.object({
  memberId: z.string().min(1),
  role: z.enum(["OWNER", "ADMIN", "VIEWER"]),
});
const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()).pipe(z.string().max(254)),
  role: z.enum(["ADMIN", "VIEWER"]),
});
const projectNameSchema = z.object({ projectId: z.string().min(1), name });

async function load(ctx: { state: DashboardState }): Promise<Data> {
  const { deps, viewer } = ctx.state;
  const organizations = await listOrganizations(deps, viewer);
  const active = organizations.find((o) => o.active) ?? null;
  if (!active) return { organizations, active, members: [], invites: [], projects: [] };
  const organizationId = active.id;
  const [members, invites, projects] = await Promise.all([
    listMemberships(deps, viewer, { organizationId }),
    listInvites(deps, viewer, { organizationId }),
    listProjects(deps, viewer, { organizationId }),
  ]);
  return { organizations, active, members, invites, projects };
}

export const handler: Handlers<Data, DashboardState> = {
  async GET(_req, ctx) {
    return ctx.render(await load(ctx), { headers: { "cache-control": "no-store" } });
  },
  async POST(req, ctx) {
    const { deps, viewer } = ctx.state;
    const orgId = () => activeOrganization(viewer);
    return await runAction(req, ctx.url, {
      switch: async (form) => {
        const { organizationId } = parseForm(idSchema("organizationId"), form);
        await switchOrganization(deps, viewer, { organizationId: String(organizationId) });
        return "switched";
      },
      create: async (form) => {
        const created = await createOrganization(deps, viewer, parseForm(nameSchema, form));
        await switchOrganization(deps, viewer, { organizationId: created.id });
        return "created";
      },
      rename: async (form) => {
        const input = parseForm(nameSchema, form);
        await renameOrganization(deps, viewer, { organizationId: orgId(), ...input });
        return "renamed";
      },
      delete: async (form) => {
        const confirmation = String(form.get("confirmation"));
        await deleteOrganization(deps, viewer, { organizationId: orgId(), confirmation });
        return "deleted";
      },
      "change-role": async (form) => {
        const input = parseForm(roleSchema, form);
        await changeMemberRole(deps, viewer, { organizationId: orgId(), ...input });
        return "role";
      },
      "remove-member": async (form) => {
        const { memberId } = parseForm(idSchema("memberId"), form);
        await removeMember(deps, viewer, { organizationId: orgId(), memberId: String(memberId) });
        return "removed";
      },
      invite: async (form) => {
        const input = parseForm(inviteSchema, form);
        await createOrRefreshInvite(deps, viewer, { organizationId: orgId(), ...input });
        return "invited";
      },
      "resend-invite": async (form) => {
        const { inviteId } = parseForm(idSchema("inviteId"), form);
        const input = { organizationId: orgId(), inviteId: String(inviteId) };
        await refreshExistingInvite(deps, viewer, input);
        return "invite-resent";
      },
      "revoke-invite": async (form) => {
        const { inviteId } = parseForm(idSchema("inviteId"), form);
        await revokeInvite(deps, viewer, { organizationId: orgId(), inviteId: String(inviteId) });
        return "invite-revoked";
      },
      "create-project": async (form) => {
        const input = parseForm(nameSchema, form);
        const project = await createProject(deps, viewer, { organizationId: orgId(), ...input });
        return seeOther(`/projects/${project.id}/setup`);
      },
      "rename-project": async (form) => {
        const { projectId, name } = parseForm(projectNameSchema, form);
        await updateProject(deps, viewer, { id: projectId, name });
        return "project-renamed";
      },
      "regenerate-key": async (form) => {
        const { projectId } = parseForm(idSchema("projectId"), form);
        await regenerateProjectKey(deps, viewer, { id: String(projectId) });
        return "key-regenerated";
      },
      "delete-project": async (form) => {
        const { projectId } = parseForm(idSchema("projectId"), form);
        const confirmation = String(form.get("confirmation"));
        await deleteProject(deps, viewer, { id: String(projectId), confirmation });
        return "project-deleted";
      },
    }, async (failure, status) => ctx.render({ ...await load(ctx), failure }, { status }));
  },
};
