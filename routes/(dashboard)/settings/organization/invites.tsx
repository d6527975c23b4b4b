// /settings/organization/invites: open invites. Everyone sees them; ADMIN and OWNER invite (as
// ADMIN or VIEWER), resend and revoke. The overview (index.tsx) shows the same section and
// accepts the same forms.
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { InviteList } from "@/components/organizations/InviteList.tsx";
import { OrganizationFrame } from "@/components/organizations/OrganizationFrame.tsx";
import { activeOrganization } from "@/core/org_access.ts";
import {
  createOrRefreshInvite,
  listInvites,
  refreshExistingInvite,
  revokeInvite,
} from "@/core/organizations/invites.ts";
import { organizationsWithActive } from "@/core/organizations/organizations.ts";
import {
  createInviteBody,
  inviteForm,
  type InviteView,
  type OrganizationView,
} from "@/core/organizations/schema.ts";
import { atLeast } from "@/core/permissions.ts";
import { formPage } from "@/http/form_page.ts";
import { type Actions, type FormFailure, parseForm } from "@/http/forms.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

export const INVITE_NOTICES: Record<string, string> = {
  invited: "Invite sent.",
  "invite-resent": "Invite sent again.",
  "invite-revoked": "Invite revoked.",
};

export function inviteActions({ deps, viewer }: DashboardState): Actions {
  const invite = (form: FormData) => ({
    organizationId: activeOrganization(viewer),
    ...parseForm(inviteForm, form),
  });
  return {
    invite: async (form) => {
      const input = parseForm(createInviteBody, form);
      await createOrRefreshInvite(deps, viewer, {
        organizationId: activeOrganization(viewer),
        ...input,
      });
      return "invited";
    },
    "resend-invite": async (form) => {
      await refreshExistingInvite(deps, viewer, invite(form));
      return "invite-resent";
    },
    "revoke-invite": async (form) => {
      await revokeInvite(deps, viewer, invite(form));
      return "invite-revoked";
    },
  };
}

export function loadInvites({ deps, viewer }: DashboardState, organizationId: string) {
  return listInvites(deps, viewer, { organizationId });
}

export function InvitesSection(
  { active, invites }: { active: OrganizationView; invites: InviteView[] },
) {
  return (
    <section class="card stack" aria-labelledby="invites-heading">
      <h2 id="invites-heading">Invites</h2>
      <InviteList invites={invites} manage={atLeast(active.role, "ADMIN")} />
    </section>
  );
}

interface Data {
  active: OrganizationView | null;
  invites: InviteView[];
  failure?: FormFailure;
}

async function load({ state }: FreshContext<DashboardState>): Promise<Data> {
  const { active } = await organizationsWithActive(state.deps, state.viewer);
  return { active, invites: active ? await loadInvites(state, active.id) : [] };
}

export const handler = formPage(load, ({ state }) => inviteActions(state));

export default function InvitesPage({ data, url }: PageProps<Data, DashboardState>) {
  const { active, invites, failure } = data;
  return (
    <OrganizationFrame active={active} url={url} notices={INVITE_NOTICES} failure={failure}>
      {active && <InvitesSection active={active} invites={invites} />}
    </OrganizationFrame>
  );
}
