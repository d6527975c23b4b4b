// Opens sealed batches (seal.ts) in a worker (open_worker.ts), so a replay's decryption runs on the
// second core beside the main thread's sending: Deno's WebCrypto AES-GCM does its work on the
// calling thread before its promise returns (bench/RESULTS.md "Recordings sealed at rest"). One
// worker (a WorkerPool of one, core/worker_pool.ts), started by the first job, ended with the
// app's deps; a read's bytes go to it and come back opened one batch at a time, as each opens
// (the reader sends the first while the worker opens the next), transferred (never copied).
import { type PooledWorker, WorkerPool } from "@/core/worker_pool.ts";
import type { BatchPlace } from "./seal.ts";

/**
 * Sealed bytes of one read below this are opened on the main thread: a worker's round trip (about
 * 0.2 ms) costs more than opening them there (0.07 ms for 16 KiB, 0.26 ms for 64 KiB; measured,
 * docs/decisions.md "Recordings in an object store").
 */
export const OPEN_IN_WORKER_BYTES = 64 * 1024;

export const OPEN_WORKER_URL = new URL("./open_worker.ts", import.meta.url);

/** One batch of a job: where its sealed bytes are in the job's buffer. */
export interface OpenItem {
  batchId: number;
  offset: number;
  length: number;
}

/** Main thread to worker: a session's data key (raw bytes), its place and a read's buffer. */
export interface OpenJob {
  id: number;
  key: Uint8Array;
  place: Omit<BatchPlace, "batchId">;
  buffer: ArrayBuffer;
  items: OpenItem[];
}

/**
 * Worker to main thread, once per item in order: its gzip bytes, or null when it does not open (a
 * SealError); or the job's error, which fails the items not answered yet.
 */
export type OpenWorkerMessage =
  | { ready: true }
  | { id: number; index: number; opened: ArrayBuffer | null }
  | { id: number; error: string };

/** A batch's bytes once opened (null: it does not open). */
export type Opened = Promise<Uint8Array | null>;

interface Pending {
  /** Each item's settling, by its index in the job. */
  items: Array<{ resolve(bytes: Uint8Array | null): void; reject(error: Error): void }>;
  /** Items not answered yet. */
  left: number;
  /** Opens the job on the main thread: its buffer was never posted (the worker did not load). */
  inline(): void;
}

export class OpenPool {
  readonly #pool = new WorkerPool<OpenWorkerMessage>(OPEN_WORKER_URL, 1, {
    message: (_, data) => this.#settle(data),
    // One that failed to load would fail again: its jobs (still unposted) open here, and so do
    // the next ones. One that failed later took its jobs' bytes: those reads fail.
    failed: (_, wasReady) => wasReady ? this.#fail() : this.close(),
  }, "storage:open");
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  /** Jobs sent to a worker (tests and the benchmark read it). */
  jobs = 0;

  /** Workers started (tests read it). */
  get started(): number {
    return this.#pool.started;
  }

  /** Workers alive (tests read it). */
  get workers(): number {
    return this.#pool.workers.length;
  }

  /** Ended (with the app's deps, or its worker could not load): batches open on the main thread. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Opens `items` of `buffer` (which it takes) under `key` in the worker, each settled as it opens;
   * `inline` opens them on the main thread instead (the pool is closed, or its worker could not
   * load).
   */
  open(
    key: Uint8Array,
    place: OpenJob["place"],
    buffer: ArrayBuffer,
    items: OpenItem[],
    inline: () => Opened[],
  ): Opened[] {
    if (this.#closed) return inline();
    const id = this.#nextId++;
    const settlers: Pending["items"] = [];
    const opened = items.map(() =>
      new Promise<Uint8Array | null>((resolve, reject) => settlers.push({ resolve, reject }))
    );
    this.#pending.set(id, {
      items: settlers,
      left: items.length,
      inline: () =>
        inline().forEach((bytes, i) => bytes.then(settlers[i].resolve, settlers[i].reject)),
    });
    const worker: PooledWorker = this.#pool.workers[0] ?? this.#pool.start()!;
    this.jobs++;
    const job: OpenJob = { id, key, place, buffer, items };
    worker.post(job, [buffer]);
    return opened;
  }

  /** Ends the worker; jobs it had not answered open on the main thread if their bytes are here. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    const ready = this.#pool.workers[0]?.ready ?? false;
    this.#pool.close();
    if (ready) return this.#fail();
    for (const job of this.#take()) job.inline();
  }

  #settle(data: OpenWorkerMessage) {
    if (!("id" in data)) return;
    const job = this.#pending.get(data.id);
    if (!job) return;
    if ("error" in data) {
      this.#pending.delete(data.id);
      return rejectAll(job, new Error(`opening sealed batches: ${data.error}`));
    }
    job.items[data.index].resolve(data.opened && new Uint8Array(data.opened));
    if (--job.left === 0) this.#pending.delete(data.id);
  }

  #fail() {
    const error = new Error("the worker opening sealed batches ended before answering");
    for (const job of this.#take()) rejectAll(job, error);
  }

  #take(): Pending[] {
    const jobs = [...this.#pending.values()];
    this.#pending.clear();
    return jobs;
  }
}

/** Fails the job's items not answered yet (a settled promise ignores a later reject). */
function rejectAll(job: Pending, error: Error) {
  for (const item of job.items) item.reject(error);
}
