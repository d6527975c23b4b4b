// Replay views in the audit log (docs/decisions.md "Audit log"): when the organization's "audit
// replay views" setting is on, opening a session's replay page writes `session.view`, once per
// viewer, session and UTC hour (core/audit/record.ts); off, nothing is written.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { recordReplayView } from "./record.ts";

/** Call once the session is known to be the viewer's active organization's. */
export async function auditReplayView(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  sessionId: string,
): Promise<void> {
  const organizationId = viewer.activeOrganizationId;
  if (!organizationId) return;
  await recordReplayView(deps.db.kysely, viewer, { organizationId, sessionId });
}
