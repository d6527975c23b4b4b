// The replay page's frame at a moment (`?t=`), drawn by the server (player/server_frame/) in the
// frame worker: read from the stored batches from the one holding the last full snapshot at or
// before it, bounded per request, and kept per session, stored event count and moment
// (server_frames.ts). Past a bound the page opens without it and the player draws the moment.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { FrameBatch, ServedFrame } from "@/player/server_frame/frame_job.ts";
import { MOMENT_LIMITS } from "@/player/server_frame/moment_frame.ts";
import { FIRST_FRAME_STORE_WAIT_MS, sessionOf, storedBatches } from "./detail.ts";
import { newFrameStats, servedFrame } from "./server_frames.ts";

type Deps = Pick<AppDeps, "db" | "frames"> & Partial<Pick<AppDeps, "store">>;

/** What the benchmark reports: views, cache hits and the server time of the frames drawn. */
export const momentFrameStats = newFrameStats();

/** The frame at real offset `offset` (ms from the session start), or null (not found throws). */
export async function momentFrame(
  deps: Deps,
  viewer: Viewer,
  id: string,
  offset: number,
): Promise<ServedFrame | null> {
  const session = await sessionOf(deps, viewer, id);
  return await servedFrame(deps.frames, {
    // A batch that arrives later (an open session) may hold events before the moment.
    key: `${session.id}:${session.event_count}:${offset}`,
    job: { kind: "moment", target: session.started_at.getTime() + offset, limits: MOMENT_LIMITS },
    batches: async function* () {
      // A store that does not answer at once leaves the page without the frame, as the first's.
      const storeWaitMs = FIRST_FRAME_STORE_WAIT_MS;
      yield* gzipBatches(await storedBatches(deps, session, { from: offset, storeWaitMs }));
    },
    stats: momentFrameStats,
    context: { sessionId: session.id, offset },
  });
}

async function* gzipBatches(
  stored: AsyncIterable<{
    meta: { first_ts: number; last_ts: number };
    bytes: Uint8Array | null;
  }>,
): AsyncGenerator<FrameBatch> {
  for await (const { meta, bytes } of stored) {
    // A missing object: the frame would lack its events (the player reports the batch).
    if (!bytes) throw new Error("a stored batch is missing");
    yield { span: { first: meta.first_ts, last: meta.last_ts }, bytes: [bytes] };
  }
}
