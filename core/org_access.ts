// Organization scoping for dashboard data: the viewer's active organization and a minimum role,
// checked in core/ so that pages and the API authorise alike (docs/decisions.md "Roles").
import type { Role } from "@/db/schema.ts";
import { forbidden, notFound, validation } from "./errors.ts";
import { atLeast } from "./permissions.ts";
import type { Viewer } from "./auth/viewer.ts";

/** The viewer's active organization id, once their role there is at least `minRole`. */
export function activeOrganization(viewer: Viewer, minRole: Role = "VIEWER"): string {
  if (!viewer.activeOrganizationId || !viewer.role) {
    throw validation("no active organization: choose one first");
  }
  if (!atLeast(viewer.role, minRole)) throw forbidden();
  return viewer.activeOrganizationId;
}

/**
 * The active organization for a change to one of its resources that needs `minRole`. A role too
 * low is 403 only for a resource the viewer can see; one that is unknown or in another
 * organization stays 404, never revealing that it exists, as for projects.
 */
export async function activeOrganizationToChange(
  viewer: Viewer,
  minRole: Role,
  visible: (organizationId: string) => Promise<boolean>,
  what: string,
): Promise<string> {
  const organizationId = activeOrganization(viewer);
  if (atLeast(viewer.role!, minRole)) return organizationId;
  if (!await visible(organizationId)) throw notFound(what);
  throw forbidden();
}
