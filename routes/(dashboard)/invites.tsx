// /invites: the signed-in account's pending invites to organizations, each accepted or declined
// by a form post.
import { Head } from "$fresh/runtime.ts";
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { z } from "zod";
import { Notice } from "@/components/ui/Notice.tsx";
import { RowForm } from "@/components/ui/RowForm.tsx";
import { switchOrganization } from "@/core/organizations/organizations.ts";
import {
  acceptInvite,
  declineInvite,
  listUserInvites,
  type UserInviteView,
} from "@/core/account/invites.ts";
import { formPage } from "@/http/form_page.ts";
import { type Actions, type FormFailure, parseForm, seeOther } from "@/http/forms.ts";
import type { DashboardState } from "./_middleware.ts";

interface Data {
  invites: UserInviteView[];
  failure?: FormFailure;
}

const NOTICES: Record<string, string> = { declined: "Invite declined." };

export default function Invites({ data, url }: PageProps<Data, DashboardState>) {
  const { invites, failure } = data;
  return (
    <>
      <Head>
        <title>Invites · Playhead</title>
      </Head>
      <h1>Invites</h1>
      <Notice url={url} notices={NOTICES} failure={failure} />
      <section class="card stack" aria-label="Pending invites">
        {invites.length === 0
          ? <p class="muted">You have no pending invites.</p>
          : (
            <ul class="plain-list stack">
              {invites.map((invite) => (
                <li key={invite.id} class="project stack" data-invite={invite.organization.name}>
                  <p>
                    <strong>{invite.organization.name}</strong> invites you as{" "}
                    <span class="badge">{invite.role}</span>
                    {invite.invitedBy && (
                      <>
                        {" "}— sent by {invite.invitedBy.name ?? invite.invitedBy.email}
                      </>
                    )}
                  </p>
                  <p class="muted">
                    Expires <time datetime={invite.expiresAt}>{invite.expiresAt.slice(0, 10)}</time>
                  </p>
                  <RowForm item={{ inviteId: invite.id }}>
                    <button type="submit" name="intent" value="accept">
                      Accept {invite.organization.name}
                    </button>
                    <button type="submit" name="intent" value="decline" class="danger">
                      Decline
                    </button>
                  </RowForm>
                </li>
              ))}
            </ul>
          )}
      </section>
    </>
  );
}

const inviteSchema = z.object({ inviteId: z.string().min(1) });

async function load({ state }: FreshContext<DashboardState>): Promise<Data> {
  return { invites: await listUserInvites(state.deps, state.viewer) };
}

function actions({ state: { deps, viewer } }: FreshContext<DashboardState>): Actions {
  return {
    // The new member lands in the organization they joined.
    accept: async (form) => {
      const invite = await acceptInvite(deps, viewer, parseForm(inviteSchema, form));
      await switchOrganization(deps, viewer, { organizationId: invite.organization.id });
      return seeOther("/settings/organization?done=joined");
    },
    decline: async (form) => {
      await declineInvite(deps, viewer, parseForm(inviteSchema, form));
      return "declined";
    },
  };
}

export const handler = formPage(load, actions);
