// Organization members (docs/decisions.md "Roles"): everyone sees the roster; OWNER changes roles
// and removes members; anyone may leave. An organization never loses its last OWNER: demoting it is
// 409, and an owner who leaves hands ownership on (oldest ADMIN, else oldest member). Changes check
// the caller's role on the locked roster, so a demotion that lands first is honoured.
import type { AppDeps } from "@/core/deps.ts";
import {
  listMembers,
  removeMembership,
  setRole,
  withLockedRoster,
} from "@/db/queries/organizations/members.ts";
import type { Role } from "@/db/schema.ts";
import { avatarUrl } from "@/core/service/avatar.ts";
import { conflict, forbidden, notFound } from "@/core/errors.ts";
import { heirOnLeaving, type MemberRef } from "./ownership.ts";
import { requireRole, roleIn } from "@/core/permissions.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { MembershipView } from "./schema.ts";
import { recordAudit } from "@/core/audit/record.ts";

type MemberDeps = Pick<AppDeps, "config" | "db">;
type MemberRow = Awaited<ReturnType<typeof listMembers>>[number];

export async function listMemberships(
  deps: MemberDeps,
  viewer: Viewer,
  input: { organizationId: string },
): Promise<MembershipView[]> {
  await roleIn(deps, viewer, input.organizationId);
  const rows = await listMembers(deps.db.kysely, input.organizationId);
  return rows.map((row) => viewOf(deps, row));
}

export async function changeMemberRole(
  deps: MemberDeps,
  viewer: Viewer,
  input: { organizationId: string; memberId: string; role: Role },
): Promise<MembershipView> {
  const rows = await withLockedRoster(deps.db.kysely, input.organizationId, async (tx, roster) => {
    requireRole(callerIn(roster, viewer).role, "OWNER");
    const target = roster.find((m) => m.id === input.memberId);
    if (!target) throw notFound("member");
    const owners = roster.filter((m) => m.role === "OWNER");
    if (target.role === "OWNER" && input.role !== "OWNER" && owners.length === 1) {
      throw conflict("an organization needs an owner: make someone else OWNER first");
    }
    await setRole(tx, target.id, input.role);
    await recordAudit(tx, viewer, {
      organizationId: input.organizationId,
      action: "member.role_change",
      targetId: target.userId,
      details: { from: target.role, to: input.role },
    });
    return await listMembers(tx, input.organizationId);
  });
  return viewOf(deps, rows.find((row) => row.id === input.memberId)!);
}

export async function removeMember(
  deps: MemberDeps,
  viewer: Viewer,
  input: { organizationId: string; memberId: string },
): Promise<void> {
  await withLockedRoster(deps.db.kysely, input.organizationId, async (tx, roster) => {
    const { role } = callerIn(roster, viewer);
    const target = roster.find((m) => m.id === input.memberId);
    if (!target) throw notFound("member");
    const leaving = target.userId === viewer.userId;
    if (!leaving && role !== "OWNER") throw forbidden("only an OWNER can remove members");
    if (roster.length === 1) {
      throw conflict("the only member cannot leave: delete the organization instead");
    }
    if (target.role === "OWNER" && !roster.some((m) => m.role === "OWNER" && m !== target)) {
      const heir = leaving ? heirOnLeaving(roster, target.userId) : null;
      if (!heir) throw conflict("an organization cannot lose its last owner");
      await setRole(tx, heir.id, "OWNER");
    }
    await removeMembership(tx, target, input.organizationId);
    await recordAudit(tx, viewer, {
      organizationId: input.organizationId,
      action: "member.remove",
      targetId: target.userId,
      details: { role: target.role, leaving },
    });
  });
}

function viewOf(deps: MemberDeps, row: MemberRow): MembershipView {
  return {
    id: row.id,
    role: row.role,
    joinedAt: new Date(row.created_at).toISOString(),
    user: {
      id: row.user_id,
      name: row.name,
      email: row.email,
      image: avatarUrl(deps.config.appUrl, row.avatar_seed),
    },
  };
}

/**
 * The caller's membership as the locked roster has it: a role checked before the lock could be
 * stale by the time the change runs (demoted or removed meanwhile). Not a member → 404.
 */
function callerIn(roster: MemberRef[], viewer: Viewer): MemberRef {
  const caller = roster.find((m) => m.userId === viewer.userId);
  if (!caller) throw notFound("organization");
  return caller;
}
