// Pinned sessions (docs/decisions.md "Retention per project"): ADMIN+ pins a session of the active
// organization so it outlives its project's retention, or unpins it; each is an audit row in the
// same transaction. An erasure deletes a pinned session like any other: nothing here brings one
// back (an UPDATE of a row that is gone changes nothing and answers 404).
import type { AppDeps } from "@/core/deps.ts";
import { notFound } from "@/core/errors.ts";
import { activeOrganizationToChange } from "@/core/org_access.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { recordAudit } from "@/core/audit/record.ts";
import { findSession } from "@/db/queries/sessions/detail.ts";
import { setSessionPin } from "@/db/queries/sessions/pins.ts";
import type { SessionPinView } from "./schema.ts";

export async function pinSession(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  id: string,
  pinned: boolean,
): Promise<SessionPinView> {
  const db = deps.db.kysely;
  const visible = async (orgId: string) => !!await findSession(db, orgId, id);
  const organizationId = await activeOrganizationToChange(viewer, "ADMIN", visible, "session");
  const row = await db.transaction().execute(async (trx) => {
    const changed = await setSessionPin(trx, organizationId, id, pinned ? new Date() : null);
    if (changed) {
      await recordAudit(trx, viewer, {
        organizationId,
        action: pinned ? "session.pin" : "session.unpin",
        targetId: id,
        details: { projectId: changed.project_id },
      });
    }
    return changed;
  });
  if (!row) throw notFound("session");
  return {
    id,
    pinned: row.pinned_at !== null,
    pinnedAt: row.pinned_at ? new Date(row.pinned_at).toISOString() : null,
  };
}
