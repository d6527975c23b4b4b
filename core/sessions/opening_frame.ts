// The frame a replay page opens on, drawn by the server in the frame worker (server_frames.ts):
// at a moment (`?t=`) that moment's (recording/model/moment_frame.ts: from the stored batch
// holding the last full snapshot at or before it, bounded per request), else the session's first
// (recording/model/first_frame.ts: the first batches read in growing slices only as far as the
// worker asks). Each is kept per session and stored event count (and moment), so a second view is
// free; past a bound the page opens without it and the player draws it, as before. The page and
// its frame document (routes/(dashboard)/replays/frame/) choose it here, so they always agree.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { FIRST_FRAME_BATCHES, FIRST_FRAME_LIMITS } from "@/recording/model/first_frame.ts";
import { MOMENT_LIMITS } from "@/recording/model/moment_frame.ts";
import type { FrameBatch, ServedFrame } from "./frame_job.ts";
import type { SessionRow } from "@/db/queries/sessions/detail.ts";
import { FIRST_FRAME_STORE_WAIT_MS, firstBatchesOf, sessionOf, storedBatches } from "./detail.ts";

type Deps = Pick<AppDeps, "db" | "frames"> & Partial<Pick<AppDeps, "store">>;

/** The frame at real offset `startAt` (ms; 0 is the start), or null (not found throws). */
export async function openingFrame(
  deps: Deps,
  viewer: Viewer,
  id: string,
  startAt: number,
): Promise<ServedFrame | null> {
  const session = await sessionOf(deps, viewer, id);
  return startAt > 0 ? momentFrame(deps, session, startAt) : firstFrame(deps, session);
}

function firstFrame(deps: Deps, session: SessionRow): Promise<ServedFrame | null> {
  return deps.frames.serve({
    key: `${session.id}:${session.event_count}:first`,
    job: { kind: "first", limits: FIRST_FRAME_LIMITS },
    batches: async function* () {
      for await (const bytes of firstBatchesOf(deps, session, FIRST_FRAME_BATCHES)) {
        yield { span: null, bytes };
      }
    },
    context: { sessionId: session.id },
  });
}

function momentFrame(deps: Deps, session: SessionRow, offset: number) {
  return deps.frames.serve({
    // A batch that arrives later (an open session) may hold events before the moment.
    key: `${session.id}:${session.event_count}:${offset}`,
    job: { kind: "moment", target: session.started_at.getTime() + offset, limits: MOMENT_LIMITS },
    batches: async function* () {
      // A store that does not answer at once leaves the page without the frame, as the first's.
      const storeWaitMs = FIRST_FRAME_STORE_WAIT_MS;
      yield* gzipBatches(await storedBatches(deps, session, { from: offset, storeWaitMs }));
    },
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
