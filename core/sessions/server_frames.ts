// The replay page's frames as the server serves them: each drawn once in the frame worker
// (frame_pool.ts) and kept in a bounded cache, so a second view costs nothing; views that arrive
// while a frame is being drawn wait for that one drawing. Past a bound, a budget or a failure the
// page opens without a frame and the player draws it, as before; that is logged. A frame past a
// bound is remembered as none (it would be again); one past its time or turn is tried again. One
// per app (`AppDeps.frames`), with its worker pool: created with the app, ended by `close()`.
import type { FrameBatch, FrameJob, FrameResult, ServedFrame } from "./frame_job.ts";
import { log } from "@/log.ts";
import { FrameCache } from "./frame_cache.ts";
import { FramePool } from "./frame_pool.ts";

/** Kept for a frame that cannot be drawn whatever the moment's load. */
const NO_FRAME: ServedFrame = { width: 0, height: 0, srcdoc: "", document: null };
/** Failures of the moment (load, a store, the worker), not of the recording: tried again. */
const PASSING = new Set<FrameResult["failure"]>([
  "too-slow",
  "busy",
  "crashed",
  "closed",
  "corrupt",
]);

/** What the benchmark reports: views, cache hits and the server time of the frames drawn. */
export interface FrameStats {
  views: number;
  hits: number;
  drawnMs: number;
  drawn: number;
}

const newFrameStats = (): FrameStats => ({ views: 0, hits: 0, drawnMs: 0, drawn: 0 });

export interface FrameRequest {
  /** Names the frame: a session's, at its stored event count (a later batch may change it). */
  key: string;
  job: FrameJob;
  /** The stored batches, read only as the worker asks for them. */
  batches: () => AsyncIterable<FrameBatch>;
  /** Logged with the frame's outcome. */
  context: Record<string, unknown>;
}

export class ServerFrames {
  /** 256 frames of up to 64 MiB of HTML in all (a page's frame is 5 KB–8 MiB). */
  readonly #cache = new FrameCache<ServedFrame>(256, 64 * 1024 * 1024);
  readonly #drawing = new Map<string, Promise<ServedFrame | null>>();
  /** Views, cache hits and drawings of each kind of frame (the benchmark and tests read them). */
  readonly stats: Record<FrameJob["kind"], FrameStats> = {
    first: newFrameStats(),
    moment: newFrameStats(),
  };

  /** The worker pool that draws (the benchmark swaps in one that draws on the main thread). */
  constructor(public pool: FramePool = new FramePool()) {}

  /** The frame `request` names: cached, being drawn, or drawn now; null when there is none. */
  serve(request: FrameRequest): Promise<ServedFrame | null> {
    const stats = this.stats[request.job.kind];
    stats.views++;
    const cached = this.#cache.get(request.key);
    if (cached) {
      stats.hits++;
      return Promise.resolve(cached === NO_FRAME ? null : cached);
    }
    let frame = this.#drawing.get(request.key);
    if (!frame) {
      frame = this.#draw(request).finally(() => this.#drawing.delete(request.key));
      this.#drawing.set(request.key, frame);
    }
    return frame;
  }

  /** Ends the pool's worker; a job in its queue or running answers "closed". */
  close() {
    this.pool.close();
  }

  async #draw(request: FrameRequest): Promise<ServedFrame | null> {
    const { key, job, context } = request;
    const started = performance.now();
    const { frame, failure, events } = await this.pool.draw(job, request.batches());
    const ms = Math.round(performance.now() - started);
    if (!frame) {
      log.info("replay:frame:fallback", { ...context, kind: job.kind, failure, events, ms });
      if (!PASSING.has(failure)) this.#cache.set(key, NO_FRAME);
      return null;
    }
    const stats = this.stats[job.kind];
    stats.drawn++;
    stats.drawnMs += ms;
    log.debug("replay:frame:drawn", { ...context, kind: job.kind, events, ms });
    this.#cache.set(key, frame);
    return frame;
  }
}
