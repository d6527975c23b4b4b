// The cut worker (cut_worker.ts) and its jobs: a public link's window and the exports are decoded,
// cut and gzipped again there, never on the main thread, which only reads the stored bytes the
// worker pulls, hands them over, and passes each cut batch to its answer. As the frame worker
// (core/sessions/frame_pool.ts): one worker (a WorkerPool of one, core/worker_pool.ts: the host has
// two cores, one for the requests), started with the first job, replaced when it fails, ended by
// `close()`. Unlike a frame, a cut is
// streamed: several jobs run at once, each moved on one piece at a time as its reader asks, so a
// slow reader holds no other job and no decoded batch. Past MAX_CUT_JOBS at once a new one is
// refused (503 + Retry-After), but for the continuation of one admitted (the HTML export's second
// reading, which starts as its first ends).
import { unavailable } from "@/core/errors.ts";
import type { StoredBatch } from "@/core/sessions/detail.ts";
import type { EventBatchOut } from "@/core/sessions/schema.ts";
import type { ImageSightings } from "@/core/exports/image_places.ts";
import { log } from "@/log.ts";
import { WorkerPool } from "@/core/worker_pool.ts";
import {
  CUT_WORKER_URL,
  type CutHostMessage,
  type CutInput,
  type CutJob,
  type CutPiece,
  type CutWorkerMessage,
} from "./cut_job.ts";

/** Cuts in progress at once, every link and export together (each holds at most one batch). */
export const MAX_CUT_JOBS = 32;

interface Job {
  job: CutJob;
  inputs: AsyncIterator<CutInput>;
  /** The piece its reader awaits. */
  waiting: PromiseWithResolvers<IteratorResult<CutPiece>> | null;
  /** Leaves the pool and lets its stored batches go (once). */
  end(): void;
}

/** A link's cut and the HTML export's are batches. */
type BatchJob = Extract<CutJob, { kind: "link" | "html" }>;

/** How a job is admitted: `continued`, the next reading of a cut already admitted. */
interface Admission {
  continued?: boolean;
}

export class CutPool {
  readonly #maxJobs: number;
  readonly #pool = new WorkerPool<CutWorkerMessage>(CUT_WORKER_URL, 1, {
    message: (_, data) => this.#onMessage(data),
    // Its jobs fail; the next job starts a fresh worker.
    failed: () => this.#stopWorker("the cut worker failed"),
  }, "shares:cut");
  readonly #jobs = new Map<number, Job>();
  #nextId = 1;
  /** Jobs run and stored batches handed to the worker (tests, the benchmark). */
  jobs = 0;
  decoded = 0;

  constructor(options: { maxJobs?: number } = {}) {
    this.#maxJobs = options.maxJobs ?? MAX_CUT_JOBS;
  }

  /** Workers started (tests, the benchmark). */
  get started(): number {
    return this.#pool.started;
  }

  /** Jobs in progress. */
  get running(): number {
    return this.#jobs.size;
  }

  /** A link's or the HTML export's cut batches. */
  batches(
    job: BatchJob,
    inputs: AsyncIterable<CutInput>,
    admission: Admission = {},
  ): AsyncIterable<EventBatchOut> {
    return this.#run(job, inputs, admission) as AsyncIterable<EventBatchOut>;
  }

  /** The JSON export's events, one piece of JSON text per cut batch. */
  json(
    job: Extract<CutJob, { kind: "json" }>,
    inputs: AsyncIterable<CutInput>,
  ): AsyncIterable<string> {
    return this.#run(job, inputs, {}) as AsyncIterable<string>;
  }

  /** The images the HTML export's first reading sees: one piece, once every batch is read. */
  sightings(listed: number, inputs: AsyncIterable<CutInput>): AsyncIterable<ImageSightings> {
    return this.#run({ kind: "images", listed }, inputs, {}) as AsyncIterable<ImageSightings>;
  }

  /** Ends the worker; the cuts in progress fail. */
  close() {
    this.#stopWorker("the cut worker was closed");
  }

  /** The cut's pieces as its reader asks; refused (503) past the pool's jobs. */
  #run(
    job: CutJob,
    source: AsyncIterable<CutInput>,
    { continued = false }: Admission,
  ): AsyncIterable<CutPiece> {
    if (!continued && this.#jobs.size >= this.#maxJobs) {
      throw unavailable("too many replays are being cut; retry shortly", 1);
    }
    const id = this.#nextId++;
    const inputs = source[Symbol.asyncIterator]();
    let ended = false;
    const running: Job = {
      job,
      inputs,
      waiting: null,
      end: () => {
        if (ended) return;
        ended = true;
        this.#jobs.delete(id);
        void Promise.resolve(inputs.return?.()).catch(() => {});
      },
    };
    this.#jobs.set(id, running);
    this.jobs++;
    this.#post({ id, job });
    const iterator: AsyncIterator<CutPiece> = {
      next: () => {
        if (ended) return Promise.resolve({ done: true, value: undefined });
        running.waiting = Promise.withResolvers();
        this.#post({ id, next: true });
        return running.waiting.promise;
      },
      // The reader gave up (its client went away): the worker drops the job.
      return: () => {
        if (!ended) this.#post({ id, cancel: true });
        running.end();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
    return { [Symbol.asyncIterator]: () => iterator };
  }

  #onMessage(data: CutWorkerMessage) {
    if ("ready" in data) return;
    const job = this.#jobs.get(data.id);
    if (!job) return;
    if ("pull" in data) return void this.#feed(data.id, job);
    const waiting = job.waiting;
    job.waiting = null;
    if ("piece" in data) return waiting?.resolve({ done: false, value: data.piece });
    job.end();
    if ("done" in data) return waiting?.resolve({ done: true, value: undefined });
    log.warn("shares:cut:failed", { kind: job.job.kind, error: data.failed });
    waiting?.reject(new Error(`the cut failed: ${data.failed}`));
  }

  /** Reads the job's next stored batch and hands its bytes to the worker. */
  async #feed(id: number, job: Job) {
    let message: CutHostMessage;
    const transfer: Transferable[] = [];
    try {
      const next = await job.inputs.next();
      if (next.done) message = { id, input: null };
      else {
        const bytes = next.value.bytes && owned(next.value.bytes);
        if (bytes) transfer.push(bytes.buffer);
        message = { id, input: { ...next.value, bytes } };
        this.decoded++;
      }
    } catch (error) {
      log.warn("shares:cut:read_failed", { error: String(error) });
      message = { id, unreadable: true };
    }
    if (this.#jobs.get(id) === job) this.#post(message, transfer);
  }

  #post(message: CutHostMessage, transfer: Transferable[] = []) {
    const worker = this.#pool.workers[0] ?? this.#pool.start()!;
    worker.post(message, transfer);
  }

  #stopWorker(reason: string) {
    this.#pool.close();
    for (const job of [...this.#jobs.values()]) {
      const waiting = job.waiting;
      job.waiting = null;
      job.end();
      waiting?.reject(new Error(reason));
    }
  }
}

/** Stored batches as the worker reads them. */
export async function* cutInputs(stored: AsyncIterable<StoredBatch>): AsyncGenerator<CutInput> {
  for await (const { meta, bytes } of stored) {
    yield { id: String(meta.id), firstTimestamp: meta.first_ts, bytes: bytes && owned(bytes) };
  }
}

/** The bytes in a buffer of their own, which can be transferred (a view of a larger one is copied). */
function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  return whole ? bytes as Uint8Array<ArrayBuffer> : new Uint8Array(bytes);
}
