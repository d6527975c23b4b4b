// The signed-in user's invites (docs/decisions.md "Organizations, members and invites"): pending
// ones for their email; accept → membership + ACCEPTED (active organization if they have none);
// decline → DECLINED. Another email → 403, past expiry → 410 (the row becomes EXPIRED), member →
// 409.
import { createId } from "@paralleldrive/cuid2";
import type { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  inviteWithContext,
  joinOrganization,
  pendingInvitesFor,
  setInviteStatus,
  withLockedInvite,
} from "@/db/queries/account/invites.ts";
import { log } from "@/log.ts";
import { AppError, conflict, forbidden, notFound } from "@/core/errors.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { userInvite } from "@/core/organizations/schema.ts";

type Deps = Pick<AppDeps, "db">;

export type UserInviteView = z.output<typeof userInvite>;

type Row = NonNullable<Awaited<ReturnType<typeof inviteWithContext>>>;

export async function listUserInvites(deps: Deps, viewer: Viewer): Promise<UserInviteView[]> {
  return (await pendingInvitesFor(deps.db.kysely, viewer.email)).map(view);
}

export async function acceptInvite(
  deps: Deps,
  viewer: Viewer,
  input: { inviteId: string },
): Promise<UserInviteView> {
  return await answer(deps, viewer, input.inviteId, "ACCEPTED");
}

export async function declineInvite(
  deps: Deps,
  viewer: Viewer,
  input: { inviteId: string },
): Promise<UserInviteView> {
  return await answer(deps, viewer, input.inviteId, "DECLINED");
}

async function answer(
  deps: Deps,
  viewer: Viewer,
  inviteId: string,
  outcome: "ACCEPTED" | "DECLINED",
): Promise<UserInviteView> {
  const db = deps.db.kysely;
  // The expiry is written before the 410 is thrown, so that it commits.
  const result = await withLockedInvite(db, inviteId, async (tx, invite) => {
    if (!invite) throw notFound("invite");
    if (invite.email.toLowerCase() !== viewer.email.toLowerCase()) {
      throw forbidden("this invite is addressed to another email");
    }
    if (invite.status === "ACCEPTED" || invite.status === "DECLINED") {
      throw conflict(`this invite was already ${invite.status.toLowerCase()}`);
    }
    if (invite.status === "EXPIRED" || invite.lapsed) {
      if (invite.status !== "EXPIRED") await setInviteStatus(tx, invite.id, "EXPIRED");
      return "expired" as const;
    }
    if (outcome === "ACCEPTED") {
      const joined = await joinOrganization(tx, {
        membershipId: createId(),
        organizationId: invite.organization_id,
        userId: viewer.userId,
        role: invite.role,
      });
      if (!joined) throw conflict("you are already a member of this organization");
    }
    await setInviteStatus(tx, invite.id, outcome);
    return "answered" as const;
  });
  if (result === "expired") throw new AppError("gone", "this invite has expired");
  const row = await inviteWithContext(db, inviteId);
  if (!row) throw notFound("invite");
  log.info(`org:invite:${outcome === "ACCEPTED" ? "accept" : "decline"}:ok`, {
    inviteId,
    organizationId: row.organization_id,
    userId: viewer.userId,
  });
  return view(row);
}

function view(row: Row): UserInviteView {
  return {
    id: row.id,
    role: row.role,
    status: row.status,
    expiresAt: new Date(row.expires_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    organization: { id: row.organization_id, name: row.organization_name },
    invitedBy: row.inviter_email ? { name: row.inviter_name, email: row.inviter_email } : null,
  };
}
