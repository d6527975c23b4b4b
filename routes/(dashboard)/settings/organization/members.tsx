// /settings/organization/members: the roster. OWNER changes roles and removes members; anyone may
// leave. The overview (index.tsx) shows the same section and accepts the same forms.
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { MemberList } from "@/components/organizations/MemberList.tsx";
import { OrganizationFrame } from "@/components/organizations/OrganizationFrame.tsx";
import { activeOrganization } from "@/core/org_access.ts";
import { changeMemberRole, listMemberships, removeMember } from "@/core/organizations/members.ts";
import { organizationsWithActive } from "@/core/organizations/organizations.ts";
import {
  memberForm,
  memberRoleForm,
  type MembershipView,
  type OrganizationView,
} from "@/core/organizations/schema.ts";
import { formPage } from "@/http/form_page.ts";
import { type Actions, type FormFailure, parseForm } from "@/http/forms.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

export const MEMBER_NOTICES: Record<string, string> = {
  role: "Role changed.",
  removed: "Member removed.",
};

export function memberActions({ deps, viewer }: DashboardState): Actions {
  return {
    "change-role": async (form) => {
      const input = parseForm(memberRoleForm, form);
      await changeMemberRole(deps, viewer, {
        organizationId: activeOrganization(viewer),
        ...input,
      });
      return "role";
    },
    "remove-member": async (form) => {
      const { memberId } = parseForm(memberForm, form);
      await removeMember(deps, viewer, { organizationId: activeOrganization(viewer), memberId });
      return "removed";
    },
  };
}

export function loadMembers({ deps, viewer }: DashboardState, organizationId: string) {
  return listMemberships(deps, viewer, { organizationId });
}

interface SectionProps {
  active: OrganizationView;
  members: MembershipView[];
  viewerId: string;
}

export function MembersSection({ active, members, viewerId }: SectionProps) {
  return (
    <section class="card stack" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <MemberList members={members} viewerId={viewerId} viewerRole={active.role} />
    </section>
  );
}

interface Data {
  active: OrganizationView | null;
  members: MembershipView[];
  failure?: FormFailure;
}

async function load({ state }: FreshContext<DashboardState>): Promise<Data> {
  const { active } = await organizationsWithActive(state.deps, state.viewer);
  return { active, members: active ? await loadMembers(state, active.id) : [] };
}

export const handler = formPage(load, ({ state }) => memberActions(state));

export default function MembersPage({ data, url, state }: PageProps<Data, DashboardState>) {
  const { active, members, failure } = data;
  return (
    <OrganizationFrame active={active} url={url} notices={MEMBER_NOTICES} failure={failure}>
      {active && (
        <MembersSection
          active={active}
          members={members}
          viewerId={state.viewer.userId}
        />
      )}
    </OrganizationFrame>
  );
}
