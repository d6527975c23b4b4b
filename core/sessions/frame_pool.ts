// The server's frame worker (core/sessions/frame_worker.ts) and its queue: the replay
// page's frames are drawn there, never on the main thread, which only reads the stored bytes the
// worker pulls and hands them over. One worker: the host has two cores, one for the requests;
// jobs run one at a time, first come first served. A job past its time bound (its limits' `maxMs`,
// 3 s) is abandoned with its worker, which a fresh one replaces; a job that waited that long for
// its turn (the first worker's start not counted) is not started. The worker (a WorkerPool of one,
// core/worker_pool.ts) starts with the first job and ends with `close()`.
import {
  FRAME_WORKER_URL,
  type FrameBatch,
  type FrameHostMessage,
  type FrameJob,
  type FrameResult,
  type FrameWorkerMessage,
} from "./frame_job.ts";
import { log } from "@/log.ts";
import { type PooledWorker, WorkerPool } from "@/core/worker_pool.ts";

/** Timers the pool sets; a test hands in its own to end a job when it chooses. */
export interface FrameTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMERS: FrameTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as number),
};

export interface FramePoolOptions {
  timers?: FrameTimers;
  now?: () => number;
}

interface Job {
  id: number;
  job: FrameJob;
  feed: Feed;
  queuedAt: number;
  timer?: unknown;
  resolve(result: FrameResult): void;
}

export class FramePool {
  readonly #timers: FrameTimers;
  readonly #now: () => number;
  /** One worker: the host has two cores, one for the requests. */
  readonly #pool = new WorkerPool<FrameWorkerMessage>(FRAME_WORKER_URL, 1, {
    ready: () => {
      this.#firstReady ??= this.#now();
      this.#pump();
    },
    message: (_, data) => this.#onMessage(data),
    // One that failed to start would fail again: its waiting jobs get no frame, and the next job
    // tries a fresh worker.
    failed: (_, wasReady) => wasReady ? this.#replace("crashed") : this.close(),
  }, "replay:frame");
  /** When the first worker was ready: its start (the code's first load) is no job's wait. */
  #firstReady: number | null = null;
  #running: Job | null = null;
  readonly #queue: Job[] = [];
  #nextId = 1;
  /** Jobs abandoned past the budget (tests and the benchmark read them). */
  abandoned = 0;

  constructor(options: FramePoolOptions = {}) {
    this.#timers = options.timers ?? REAL_TIMERS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Workers started (tests and the benchmark read it). */
  get started(): number {
    return this.#pool.started;
  }

  /** Jobs waiting for the worker. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Draws one frame in the worker from `batches`, whose bytes it takes (transferred). */
  draw(job: FrameJob, batches: AsyncIterable<FrameBatch>): Promise<FrameResult> {
    return new Promise((resolve) => {
      const id = this.#nextId++;
      this.#queue.push({ id, job, feed: new Feed(batches), queuedAt: this.#now(), resolve });
      this.#pump();
    });
  }

  /** Ends the worker; jobs running or waiting get no frame. */
  close() {
    this.#stopWorker();
    for (const job of this.#queue.splice(0)) this.#finish(job, none("closed"));
  }

  get #worker(): PooledWorker | undefined {
    return this.#pool.workers[0];
  }

  #pump() {
    if (this.#running) return;
    if (!this.#worker) {
      if (this.#queue.length) this.#pool.start();
      return;
    }
    if (!this.#worker.ready) return;
    for (let job = this.#queue.shift(); job; job = this.#queue.shift()) {
      const budgetMs = job.job.limits.maxMs;
      if (this.#now() - Math.max(job.queuedAt, this.#firstReady ?? 0) > budgetMs) {
        this.#finish(job, none("busy"));
        continue;
      }
      this.#running = job;
      job.timer = this.#timers.set(() => this.#abandon(job), budgetMs);
      this.#post({ id: job.id, job: job.job });
      return;
    }
  }

  #onMessage(data: FrameWorkerMessage) {
    if ("ready" in data) return;
    const job = this.#running;
    if (!job || job.id !== data.id) return;
    if ("pull" in data) return void this.#answer(job, data.pull);
    this.#running = null;
    this.#finish(job, data.result);
    this.#pump();
  }

  async #answer(job: Job, what: "batch" | "slice") {
    let reply: { message: FrameHostMessage; transfer: Transferable[] };
    try {
      reply = await job.feed.next(job.id, what);
    } catch (error) {
      log.warn("replay:frame:read_failed", { error: String(error) });
      reply = { message: { id: job.id, failed: true }, transfer: [] };
    }
    // Abandoned meanwhile: the bytes go nowhere.
    if (this.#running === job) this.#post(reply.message, reply.transfer);
  }

  #abandon(job: Job) {
    if (this.#running !== job) return;
    this.abandoned++;
    log.warn("replay:frame:abandoned", { kind: job.job.kind, budgetMs: job.job.limits.maxMs });
    this.#replace("too-slow");
  }

  /** Ends the running job and its worker; a fresh worker takes the queue. */
  #replace(failure: FrameResult["failure"]) {
    this.#stopWorker(failure);
    this.#pump();
  }

  #stopWorker(failure: FrameResult["failure"] = "closed") {
    this.#pool.close();
    const job = this.#running;
    this.#running = null;
    if (job) this.#finish(job, none(failure));
  }

  #finish(job: Job, result: FrameResult) {
    this.#timers.clear(job.timer);
    job.feed.close();
    job.resolve(result);
  }

  #post(message: FrameHostMessage, transfer: Transferable[] = []) {
    this.#worker!.post(message, transfer);
  }
}

const none = (failure: FrameResult["failure"]): FrameResult => ({
  frame: null,
  failure,
  events: 0,
});

/** A job's batches, read as the worker asks for them. */
class Feed {
  readonly #batches: AsyncIterator<FrameBatch>;
  #slices: AsyncIterator<Uint8Array> | Iterator<Uint8Array> | null = null;

  constructor(batches: AsyncIterable<FrameBatch>) {
    this.#batches = batches[Symbol.asyncIterator]();
  }

  async next(id: number, what: "batch" | "slice") {
    if (what === "batch") {
      await this.#slices?.return?.();
      this.#slices = null;
      const next = await this.#batches.next();
      if (next.done) return { message: { id, batch: null }, transfer: [] };
      const { span, bytes } = next.value;
      this.#slices = Symbol.asyncIterator in bytes
        ? bytes[Symbol.asyncIterator]()
        : bytes[Symbol.iterator]();
      return { message: { id, batch: { span } }, transfer: [] };
    }
    const next = await this.#slices?.next();
    if (!next || next.done) return { message: { id, slice: null }, transfer: [] };
    const slice = owned(next.value);
    return { message: { id, slice }, transfer: [slice.buffer] };
  }

  /** Lets the reads go (a database cursor, an object store's requests). */
  close() {
    const quiet = (step?: Promise<unknown>) => void step?.catch(() => {});
    quiet(this.#slices?.return?.() as Promise<unknown> | undefined);
    quiet(this.#batches.return?.());
  }
}

/** The bytes in a buffer of their own, which can be transferred (a view of a larger one is copied). */
function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  return whole ? bytes as Uint8Array<ArrayBuffer> : new Uint8Array(bytes);
}
