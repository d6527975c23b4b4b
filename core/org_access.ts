// Organisation scoping for dashboard data: the viewer's active organisation and a minimum role,
// checked in core/ so that pages and the API authorise alike (DECISIONS "Roles").
import type { Role } from "../db/schema.ts";
import { forbidden, validation } from "./errors.ts";
import type { Viewer } from "./viewer.ts";

const RANK: Record<Role, number> = { VIEWER: 0, ADMIN: 1, OWNER: 2 };

/** The viewer's active organisation id, once their role there is at least `minRole`. */
export function activeOrganization(viewer: Viewer, minRole: Role = "VIEWER"): string {
  if (!viewer.activeOrganizationId || !viewer.role) {
    throw validation("no active organization: choose one first");
  }
  if (RANK[viewer.role] < RANK[minRole]) throw forbidden();
  return viewer.activeOrganizationId;
}
