// Invites of an organization (docs/decisions.md "Organizations, members and invites", "Roles"):
// VIEWER+ lists them; ADMIN+ creates or refreshes (one pending invite per email), resends and
// revokes them.
import type { AppDeps } from "@/core/deps.ts";
import {
  claimInviteSend,
  deleteInvite,
  inviteEmailContext,
  type InviteRole,
  type InviteRow,
  isMemberByEmail,
  isUniqueViolation,
  listOpenInvites,
  refreshInvite,
  secondsToUtcMidnight,
  upsertPendingInvite,
} from "@/db/queries/organizations/invites.ts";
import { log } from "@/log.ts";
import { conflict, notFound, rateLimited } from "@/core/errors.ts";
import { assertInviteMailAvailable, sendInviteEmail } from "./invite_email.ts";
import { roleIn } from "@/core/permissions.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { InviteView, SentInviteView } from "./schema.ts";
import { recordAudit } from "@/core/audit/record.ts";

export const INVITE_TTL_SECONDS = 3 * 86_400;
export const INVITE_EMAILS_PER_DAY = 50;

type InviteDeps = Pick<AppDeps, "config" | "db" | "mailer">;
type Context = { requestId?: string };

export async function listInvites(
  deps: InviteDeps,
  viewer: Viewer,
  input: { organizationId: string },
): Promise<InviteView[]> {
  await roleIn(deps, viewer, input.organizationId);
  const rows = await listOpenInvites(deps.db.kysely, input.organizationId);
  const now = Date.now();
  return rows.map((row) =>
    view(row, now, row.inviter_email ? { name: row.inviter_name, email: row.inviter_email } : null)
  );
}

/** Creates a PENDING invite, or refreshes the pending one for the email; `created` says which. */
export async function createOrRefreshInvite(
  deps: InviteDeps,
  viewer: Viewer,
  input: { organizationId: string; email: string; role: InviteRole },
  context: Context = {},
): Promise<{ invite: SentInviteView; created: boolean }> {
  const db = deps.db.kysely;
  await roleIn(deps, viewer, input.organizationId, "ADMIN");
  assertInviteMailAvailable(deps);
  if (await isMemberByEmail(db, input.organizationId, input.email)) {
    throw conflict("this email already belongs to a member of the organization");
  }
  await claimSend(deps, viewer, context);
  const { invite, created } = await db.transaction().execute(async (tx) => {
    const upserted = await upsertPendingInvite(tx, {
      ...input,
      invitedById: viewer.userId,
      ttlSeconds: INVITE_TTL_SECONDS,
    });
    await recordAudit(tx, viewer, {
      organizationId: input.organizationId,
      action: upserted.created ? "invite.create" : "invite.refresh",
      targetId: upserted.invite.id,
      details: { email: upserted.invite.email, role: upserted.invite.role },
    });
    return upserted;
  });
  log.info("org:invite:create_or_refresh:ok", {
    ...context,
    inviteId: invite.id,
    organizationId: input.organizationId,
    role: invite.role,
    created,
  });
  return { invite: await mailed(deps, viewer, invite, context), created };
}

/** Refreshes an open invite: PENDING again, expiry reset, role changed if given, email resent. */
export async function refreshExistingInvite(
  deps: InviteDeps,
  viewer: Viewer,
  input: { organizationId: string; inviteId: string; role?: InviteRole },
  context: Context = {},
): Promise<SentInviteView> {
  await roleIn(deps, viewer, input.organizationId, "ADMIN");
  assertInviteMailAvailable(deps);
  await claimSend(deps, viewer, context);
  let invite: InviteRow | null;
  try {
    invite = await deps.db.kysely.transaction().execute(async (tx) => {
      const row = await refreshInvite(
        tx,
        { ...input, invitedById: viewer.userId },
        INVITE_TTL_SECONDS,
      );
      if (row) {
        await recordAudit(tx, viewer, {
          organizationId: input.organizationId,
          action: "invite.refresh",
          targetId: row.id,
          details: { email: row.email, role: row.role },
        });
      }
      return row;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw conflict("another pending invite exists for this email: refresh that one");
  }
  if (!invite) throw notFound("invite");
  log.info("org:invite:create_or_refresh:ok", {
    ...context,
    inviteId: invite.id,
    organizationId: input.organizationId,
    role: invite.role,
    created: false,
  });
  return await mailed(deps, viewer, invite, context);
}

/** Revokes (deletes) an invite of the organization. */
export async function revokeInvite(
  deps: InviteDeps,
  viewer: Viewer,
  input: { organizationId: string; inviteId: string },
  context: Context = {},
): Promise<void> {
  await roleIn(deps, viewer, input.organizationId, "ADMIN");
  await deps.db.kysely.transaction().execute(async (tx) => {
    if (!await deleteInvite(tx, input.organizationId, input.inviteId)) throw notFound("invite");
    await recordAudit(tx, viewer, {
      organizationId: input.organizationId,
      action: "invite.revoke",
      targetId: input.inviteId,
    });
  });
  log.info("org:invite:revoke:ok", { ...context, ...input });
}

/** Counts one invite email against the viewer's daily allowance, or 429 until UTC midnight. */
async function claimSend(deps: InviteDeps, viewer: Viewer, context: Context): Promise<void> {
  const db = deps.db.kysely;
  if (await claimInviteSend(db, viewer.userId, INVITE_EMAILS_PER_DAY)) return;
  const retryAfter = await secondsToUtcMidnight(db);
  log.warn("org:invite:rate_limited", { ...context, userId: viewer.userId, retryAfter });
  throw rateLimited(`at most ${INVITE_EMAILS_PER_DAY} invite emails a day`, retryAfter);
}

async function mailed(
  deps: InviteDeps,
  viewer: Viewer,
  invite: InviteRow,
  context: Context,
): Promise<SentInviteView> {
  const { organizationName, inviterName } = await inviteEmailContext(
    deps.db.kysely,
    invite.organization_id,
    viewer.userId,
  );
  const emailSent = await sendInviteEmail(deps, {
    inviteId: invite.id,
    organizationId: invite.organization_id,
    organizationName,
    email: invite.email,
    role: invite.role,
    inviter: inviterName ?? viewer.email,
  }, context);
  const invitedBy = { name: inviterName, email: viewer.email };
  return { ...view(invite, Date.now(), invitedBy), emailSent };
}

function view(row: InviteRow, now: number, invitedBy: InviteView["invitedBy"]): InviteView {
  const expiresAt = new Date(row.expires_at);
  const lapsed = row.status === "PENDING" && expiresAt.getTime() <= now;
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: lapsed ? "EXPIRED" : row.status,
    expiresAt: expiresAt.toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    invitedBy,
  };
}
