// Role checks for operations on a named organization (docs/decisions.md "Roles"): VIEWER < ADMIN <
// OWNER; not a member → 404; too low → 403. Active-organization scoping is core/org_access.ts.
import type { AppDeps } from "./deps.ts";
import { membershipRole } from "@/db/queries/organizations/organizations.ts";
import type { Role } from "@/db/schema.ts";

export type { Role };
import { forbidden, notFound } from "./errors.ts";
import type { Viewer } from "./auth/viewer.ts";

/** The one role order (docs/decisions.md "Roles"); compare roles only through `atLeast`. */
const RANK: Record<Role, number> = { VIEWER: 1, ADMIN: 2, OWNER: 3 };

export function atLeast(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min];
}

export function requireRole(role: Role, min: Role): void {
  if (!atLeast(role, min)) throw forbidden(`this needs the ${min} role or higher`);
}

/** The viewer's role in any organization, at least `min`; 404 when not a member. */
export async function roleIn(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  organizationId: string,
  min: Role = "VIEWER",
): Promise<Role> {
  const role = await membershipRole(deps.db.kysely, organizationId, viewer.userId);
  if (!role) throw notFound("organization");
  requireRole(role, min);
  return role;
}
