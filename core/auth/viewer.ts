// Who is asking: the one place that turns a session token into a viewer, shared by the /api
// middleware and the page middleware (through http/session.ts, which reads the cookie) so both
// surfaces authorise alike.
import type { AppDeps } from "@/core/deps.ts";
import type { Role } from "@/db/schema.ts";
import { findViewer } from "@/db/queries/auth/viewer.ts";
import { verifySession } from "./token.ts";

export interface Viewer {
  userId: string;
  email: string;
  /** null when the user has no active organization (or is no longer a member of it). */
  activeOrganizationId: string | null;
  /** The role in the active organization. */
  role: Role | null;
  /**
   * The address the request came from, as the edge read it (http/client_address.ts); the audit
   * log records it (core/audit/record.ts). Absent where no request stands behind the viewer.
   */
  clientAddress?: string | null;
}

export type ViewerDeps = Pick<AppDeps, "db" | "authSecret">;

/** The viewer a session token stands for; null without one or when it is not current. */
export async function viewerOfToken(
  deps: ViewerDeps,
  token: string | null,
): Promise<Viewer | null> {
  if (!token) return null;
  const claims = await verifySession(deps.authSecret, token);
  if (!claims) return null;
  const row = await findViewer(deps.db.kysely, claims);
  if (!row) return null;
  // An active organization the user no longer belongs to counts as none.
  return {
    userId: row.id,
    email: row.email,
    activeOrganizationId: row.role ? row.active_organization_id : null,
    role: row.role,
  };
}
