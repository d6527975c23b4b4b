// Erasing a tracked user (ADMIN+; docs/decisions.md "Erasure"): in one transaction their sessions
// are tombstoned, their data keys destroyed and every row of theirs deleted, then the user, leaving
// a tombstone with only the SHA-256 of their external id, and the audit row `tracked_user.erase`.
// A failure anywhere rolls all of it back.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { notFound } from "@/core/errors.ts";
import { activeOrganizationToChange } from "@/core/org_access.ts";
import { findTrackedUser } from "@/db/queries/tracked_users/detail.ts";
import { eraseTrackedUserRows, lockTrackedUser } from "@/db/queries/tracked_users/erase.ts";
import { recordAudit } from "@/core/audit/record.ts";
import { log } from "@/log.ts";
import type { TrackedUserErasure } from "./schema.ts";

type Deps = Pick<AppDeps, "db">;

/** Lowercase hex SHA-256 of a user's external id (UTF-8), per project in the tombstone. */
export async function externalIdSha256(externalId: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(externalId));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The organization for an ADMIN+ action on the user: 403 below ADMIN when visible, else 404. */
export function adminOrganizationOf(deps: Deps, viewer: Viewer, id: string): Promise<string> {
  const visible = async (orgId: string) => !!await findTrackedUser(deps.db.kysely, orgId, id);
  return activeOrganizationToChange(viewer, "ADMIN", visible, "tracked user");
}

export async function eraseTrackedUser(
  deps: Deps,
  viewer: Viewer,
  id: string,
  clock: () => Date = () => new Date(),
): Promise<TrackedUserErasure> {
  const organizationId = await adminOrganizationOf(deps, viewer, id);
  const startedAt = clock();
  const answer = await deps.db.kysely.transaction().execute(async (trx) => {
    const user = await lockTrackedUser(trx, organizationId, id);
    if (!user) throw notFound("tracked user");
    const sha = await externalIdSha256(user.external_id);
    const counts = await eraseTrackedUserRows(trx, organizationId, user, sha);
    const done = {
      sessions: counts.sessions,
      batches: counts.batches,
      keysDestroyed: counts.keys,
      inlineBytes: counts.inlineBytes,
      startedAt: startedAt.toISOString(),
      endedAt: clock().toISOString(),
    };
    // Written in the erasure's transaction: the row and the erasure commit or roll back together.
    await recordAudit(trx, viewer, {
      organizationId,
      action: "tracked_user.erase",
      targetId: id,
      details: done,
    });
    return done;
  });
  log.info("tracked_user:erased", { organizationId, trackedUserId: id, ...answer });
  return answer;
}
