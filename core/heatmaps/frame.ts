// The page a heatmap is drawn over (docs/decisions.md "Heatmaps"): the server's own frame of the
// latest session of the page and band that landed on it (its first full snapshot, as the replay
// page opens on: core/sessions/opening_frame.ts), so its recorded CSS and layout are the page's.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { foldedPath } from "@/core/ingest/endpoint.ts";
import { pathnameOf } from "@/core/ingest/markers.ts";
import { openingFrame } from "@/core/sessions/opening_frame.ts";
import type { ServedFrame } from "@/core/sessions/frame_job.ts";
import { latestSessionsOnPage } from "@/db/queries/heatmaps/map.ts";

/** Recent sessions looked through for one that landed on the page. */
const CANDIDATES = 20;

export interface HeatmapFrame {
  sessionId: string;
  frame: ServedFrame;
}

/** The frame, or null when no session of the page and band has one the server can draw. */
export async function heatmapFrame(
  deps: Pick<AppDeps, "db" | "frames"> & Partial<Pick<AppDeps, "store">>,
  viewer: Viewer,
  scope: { projectId: string; path: string; band: string },
): Promise<HeatmapFrame | null> {
  activeOrganization(viewer);
  const sessions = await latestSessionsOnPage(deps.db.kysely, scope, CANDIDATES);
  // A session whose first page is this one opens on it; another shows the page it landed on.
  const landed = sessions.find((s) => s.url && foldedPath(pathnameOf(s.url)) === scope.path);
  if (!landed) return null;
  const frame = await openingFrame(deps, viewer, landed.id, 0);
  return frame ? { sessionId: landed.id, frame } : null;
}
