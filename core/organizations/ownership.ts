// Who inherits an organization when its last owner leaves or deletes their account, so none is
// left ownerless (docs/decisions.md "Roles"): the oldest ADMIN, else the oldest remaining member.
import type { MemberRef } from "@/db/queries/organizations/rosters.ts";

export type { MemberRef };

/**
 * The membership to promote to OWNER when `leavingUserId` leaves `members` (one organization's
 * roster); null when an owner remains or nobody else is left.
 */
export function heirOnLeaving(members: MemberRef[], leavingUserId: string): MemberRef | null {
  const leaving = members.find((m) => m.userId === leavingUserId);
  const others = members.filter((m) => m.userId !== leavingUserId)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  if (leaving?.role !== "OWNER" || others.length === 0) return null;
  if (others.some((m) => m.role === "OWNER")) return null;
  return others.find((m) => m.role === "ADMIN") ?? others[0];
}
