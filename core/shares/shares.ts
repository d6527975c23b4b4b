// Public links to a session, for the dashboard (docs/decisions.md "Shares"): ADMIN+ makes and
// revokes them, every member lists them. Making one needs the organization's `allowPublicLinks`.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { forbidden, notFound, validation } from "@/core/errors.ts";
import { newRowId } from "@/core/ids.ts";
import { activeOrganization, activeOrganizationToChange } from "@/core/org_access.ts";
import { findSession } from "@/db/queries/sessions/detail.ts";
import {
  insertShare,
  publicLinksAllowed,
  revokeShare as markRevoked,
  shareById,
  type ShareRow,
  sharesOfSession,
} from "@/db/queries/shares/shares.ts";
import type { CreatedShare, CreateShareInput, ShareOut } from "./schema.ts";
import { hashShareToken, newShareToken } from "./token.ts";
import { recordAudit } from "@/core/audit/record.ts";

type Deps = Pick<AppDeps, "db" | "config">;
const HOUR_MS = 3_600_000;

/** The page a token opens, on this service's own origin. */
export function sharePath(token: string): string {
  return `/s/${token}`;
}

export function shareOut(row: ShareRow, now: Date): ShareOut {
  const status = row.revoked_at ? "revoked" : row.expires_at <= now ? "expired" : "active";
  return {
    id: row.id,
    sessionId: row.session_id,
    startMs: row.start_ms,
    endMs: row.end_ms,
    showConsole: row.show_console,
    expiresAt: row.expires_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    status,
    views: row.views,
    lastViewedAt: row.last_viewed_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
  };
}

export async function createShare(
  deps: Deps,
  viewer: Viewer,
  sessionId: string,
  input: CreateShareInput,
  now = new Date(),
): Promise<CreatedShare> {
  const db = deps.db.kysely;
  const visible = async (orgId: string) => !!await findSession(db, orgId, sessionId);
  const organizationId = await activeOrganizationToChange(viewer, "ADMIN", visible, "session");
  const session = await findSession(db, organizationId, sessionId);
  if (!session) throw notFound("session");
  if (!await publicLinksAllowed(db, organizationId)) {
    throw forbidden("public links are turned off for this organization");
  }
  if (input.startMs !== undefined && input.startMs > session.duration) {
    throw validation("startMs is past the session's end", [{
      path: "startMs",
      message: `the session lasts ${session.duration} ms`,
    }]);
  }
  const token = newShareToken();
  const id = newRowId();
  const tokenHash = await hashShareToken(token);
  await db.transaction().execute(async (tx) => {
    await insertShare(tx, {
      id,
      organization_id: organizationId,
      session_id: session.id,
      token_hash: tokenHash,
      created_by_id: viewer.userId,
      start_ms: input.startMs ?? null,
      end_ms: input.endMs ?? null,
      show_console: input.showConsole,
      expires_at: new Date(now.getTime() + input.expiresInHours * HOUR_MS),
    });
    const audit = { organizationId, targetId: id, details: { sessionId: session.id, ...input } };
    await recordAudit(tx, viewer, { ...audit, action: "share.create" });
  });
  const row = await shareById(db, organizationId, id);
  return { ...shareOut(row!, now), url: `${deps.config.appUrl}${sharePath(token)}` };
}

export async function listShares(
  deps: Deps,
  viewer: Viewer,
  sessionId: string,
  now = new Date(),
): Promise<{ shares: ShareOut[] }> {
  const db = deps.db.kysely;
  const organizationId = activeOrganization(viewer);
  if (!await findSession(db, organizationId, sessionId)) throw notFound("session");
  const rows = await sharesOfSession(db, organizationId, sessionId);
  return { shares: rows.map((row) => shareOut(row, now)) };
}

/** Revoked at once: the link's next request answers 404. */
export async function revokeShare(deps: Deps, viewer: Viewer, id: string): Promise<void> {
  const db = deps.db.kysely;
  const visible = async (orgId: string) => !!await shareById(db, orgId, id);
  const organizationId = await activeOrganizationToChange(viewer, "ADMIN", visible, "share");
  await db.transaction().execute(async (tx) => {
    if (!await markRevoked(tx, organizationId, id)) throw notFound("share");
    await recordAudit(tx, viewer, { organizationId, action: "share.revoke", targetId: id });
  });
}
