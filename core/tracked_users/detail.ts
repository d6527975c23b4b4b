// One tracked user: detail, the online heartbeat (also for many at once), display-name overrides (ADMIN+) and deletion
// (ADMIN+; the sessions stay, unlinked).
import type { AppDeps } from "@/core/deps.ts";
import {
  deleteTrackedUser,
  findTrackedUser,
  trackedUserLastEvent,
  trackedUsersLastEvents,
  updateDisplayNameOverrides,
} from "@/db/queries/tracked_users/detail.ts";
import { notFound } from "@/core/errors.ts";
import { activeOrganization, activeOrganizationToChange } from "@/core/org_access.ts";
import { toItem } from "./list.ts";
import type { TrackedUserDetail, TrackedUserHeartbeat, TrackedUserStatusAnswer } from "./schema.ts";
import { statusAt } from "./status.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { storedIso } from "@/core/stored_time.ts";

type Deps = Pick<AppDeps, "db">;

export async function trackedUserDetail(
  deps: Deps,
  viewer: Viewer,
  id: string,
  now = new Date(),
): Promise<TrackedUserDetail> {
  const row = await findTrackedUser(deps.db.kysely, activeOrganization(viewer), id);
  if (!row) throw notFound("tracked user");
  return {
    ...toItem(row, now),
    customName: row.custom_name,
    displayNameTraitKey: row.display_name_trait_key,
  };
}

export async function trackedUserStatus(
  deps: Deps,
  viewer: Viewer,
  id: string,
  now = new Date(),
): Promise<TrackedUserStatusAnswer> {
  const row = await trackedUserLastEvent(deps.db.kysely, activeOrganization(viewer), id);
  if (!row) throw notFound("tracked user");
  return {
    online: statusAt(row.last_event_at, now) === "ONLINE",
    lastEventAt: storedIso(row.last_event_at),
  };
}

/** The list page's heartbeat: the status of each of `ids` in the active organization. */
export async function trackedUsersHeartbeat(
  deps: Deps,
  viewer: Viewer,
  ids: string[],
  now = new Date(),
): Promise<TrackedUserHeartbeat> {
  const rows = await trackedUsersLastEvents(deps.db.kysely, activeOrganization(viewer), ids);
  return {
    data: rows.map((row) => ({
      id: row.id,
      online: statusAt(row.last_event_at, now) === "ONLINE",
      lastEventAt: storedIso(row.last_event_at),
    })),
  };
}

export async function setDisplayName(
  deps: Deps,
  viewer: Viewer,
  id: string,
  changes: { customName?: string | null; traitKey?: string | null },
  now = new Date(),
): Promise<TrackedUserDetail> {
  const organizationId = await adminOrganization(deps, viewer, id);
  if (!await updateDisplayNameOverrides(deps.db.kysely, organizationId, id, changes)) {
    throw notFound("tracked user");
  }
  return await trackedUserDetail(deps, viewer, id, now);
}

export async function removeTrackedUser(deps: Deps, viewer: Viewer, id: string): Promise<void> {
  if (!await deleteTrackedUser(deps.db.kysely, await adminOrganization(deps, viewer, id), id)) {
    throw notFound("tracked user");
  }
}

/** ADMIN+ changes: below ADMIN, 403 for a tracked user of the active organization, else 404. */
function adminOrganization(deps: Deps, viewer: Viewer, id: string): Promise<string> {
  const visible = async (orgId: string) => !!await findTrackedUser(deps.db.kysely, orgId, id);
  return activeOrganizationToChange(viewer, "ADMIN", visible, "tracked user");
}
