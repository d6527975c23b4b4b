// Deleting one session from the dashboard (ADMIN+) erases it (docs/decisions.md "Erasure"): in one
// transaction its tombstone, its data key destroyed, its rows deleted and the audit row
// `session.delete`; a failure leaves all of it as it was.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { recordAudit } from "@/core/audit/record.ts";
import { notFound } from "@/core/errors.ts";
import { activeOrganizationToChange } from "@/core/org_access.ts";
import { findSession } from "@/db/queries/sessions/detail.ts";
import { eraseSessions } from "@/db/queries/sessions/erase.ts";

/**
 * How long an erased session's tombstone refuses its batches: ingest accepts recorded times up to
 * 30 days old, so no batch of it is accepted later anyway. The daily cleanup sweeps older ones.
 */
export const TOMBSTONE_MS = 30 * 86_400_000;

export async function removeSession(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  id: string,
): Promise<void> {
  const db = deps.db.kysely;
  const visible = async (orgId: string) => !!await findSession(db, orgId, id);
  const organizationId = await activeOrganizationToChange(viewer, "ADMIN", visible, "session");
  await db.transaction().execute(async (trx) => {
    const erased = await eraseSessions(trx, { organizationId, sessionId: id });
    if (!erased.sessions) throw notFound("session");
    await recordAudit(trx, viewer, {
      organizationId,
      action: "session.delete",
      targetId: id,
      details: { batches: erased.batches, keysDestroyed: erased.keys },
    });
  });
}
