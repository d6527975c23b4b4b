// Who is asking: the one place that turns a session cookie into a viewer, shared by the /api
// middleware and the page middleware so both surfaces authorise alike.
import type { AppDeps } from "../deps.ts";
import type { Role } from "../../db/schema.ts";
import { findViewer } from "../../db/queries/auth/viewer.ts";
import { readSessionCookie } from "../../http/cookies.ts";
import { verifySession } from "./token.ts";

export interface Viewer {
  userId: string;
  email: string;
  /** null when the user has no active organization (or is no longer a member of it). */
  activeOrganizationId: string | null;
  /** The role in the active organization. */
  role: Role | null;
}

export type ViewerDeps = Pick<AppDeps, "config" | "db" | "authSecret">;

/** The viewer of a request's Cookie header; null when signed out or the token is not current. */
export async function resolveViewer(
  deps: ViewerDeps,
  cookieHeader: string | null,
): Promise<Viewer | null> {
  const token = readSessionCookie(deps.config.appUrl, cookieHeader);
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
