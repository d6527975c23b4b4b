// The replay page's first frame, drawn by the server (player/server_frame/first_frame.ts) in the
// frame worker from the session's first stored batches, read in growing slices only as far as the
// worker asks, and kept per session and stored event count (server_frames.ts), so a second view
// is free. Past a bound the page opens without it and the player draws it, as before.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { FIRST_FRAME_BATCHES, FIRST_FRAME_LIMITS } from "@/player/server_frame/first_frame.ts";
import type { ServedFrame } from "@/player/server_frame/frame_job.ts";
import { firstBatchesOf, sessionOf } from "./detail.ts";
import { newFrameStats, servedFrame } from "./server_frames.ts";

type Deps = Pick<AppDeps, "db" | "frames"> & Partial<Pick<AppDeps, "store">>;

/** What the benchmark and tests read: views, cache hits and the server time of frames drawn. */
export const firstFrameStats = newFrameStats();

/** The session's first frame, or null (not found throws). */
export async function sessionFirstFrame(
  deps: Deps,
  viewer: Viewer,
  id: string,
): Promise<ServedFrame | null> {
  const session = await sessionOf(deps, viewer, id);
  return await servedFrame(deps.frames, {
    key: `${session.id}:${session.event_count}:first`,
    job: { kind: "first", limits: FIRST_FRAME_LIMITS },
    batches: async function* () {
      for await (const bytes of firstBatchesOf(deps, session, FIRST_FRAME_BATCHES)) {
        yield { span: null, bytes };
      }
    },
    stats: firstFrameStats,
    context: { sessionId: session.id },
  });
}
