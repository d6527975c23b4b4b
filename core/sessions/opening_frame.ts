// The frame a replay page opens on, drawn by the server: at a moment (`?t=`) that moment's
// (moment_frame.ts), else the session's first (first_frame.ts). The page and its frame document
// (routes/(dashboard)/replays/frame/) choose it here, so they always agree.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { ServedFrame } from "@/player/server_frame/frame_job.ts";
import { sessionFirstFrame } from "./first_frame.ts";
import { momentFrame } from "./moment_frame.ts";

type Deps = Pick<AppDeps, "db" | "frames"> & Partial<Pick<AppDeps, "store">>;

/** The frame at real offset `startAt` (ms; 0 is the start), or null (not found throws). */
export function openingFrame(
  deps: Deps,
  viewer: Viewer,
  id: string,
  startAt: number,
): Promise<ServedFrame | null> {
  return startAt > 0 ? momentFrame(deps, viewer, id, startAt) : sessionFirstFrame(deps, viewer, id);
}
