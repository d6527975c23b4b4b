// Derives heatmap shares in a worker (./derive_worker.ts), so the background step's CPU work
// (inflating, parsing, walking the page model) never holds a request: the main thread only reads
// the stored bytes and transfers them, a batch at a time, and writes the rows that come back. One
// worker (a WorkerPool of one, core/worker_pool.ts: the host has two cores), started by the first
// session, kept in the app's pools (`AppDeps.workers`) and ended with them. When the pool is
// closed, or its worker cannot load, sessions are read inline by the same code (./share_reader.ts).
import { type PooledWorker, WorkerPool } from "@/core/worker_pool.ts";
import {
  type BatchRead,
  DERIVE_BOUNDS,
  type DeriveBounds,
  type ShareRead,
  ShareReader,
} from "./share_reader.ts";

export const DERIVE_WORKER_URL = new URL("./derive_worker.ts", import.meta.url);
/** The pool's name in `AppDeps.workers` and its log lines. */
export const DERIVE_POOL = "heatmaps:derive";

/** Main thread to worker: a session begun, one of its batches (transferred), its end. */
export type DeriveHostMessage =
  | { id: number; kind: "begin"; bounds: DeriveBounds }
  | { id: number; kind: "batch"; bytes: ArrayBuffer }
  | { id: number; kind: "end" };

/** Worker to main thread: a batch read, the session's share, or why it failed. */
export type DeriveWorkerMessage =
  | { ready: true }
  | { id: number; kind: "batch"; read: BatchRead }
  | ({ id: number; kind: "share" } & ShareRead)
  | { id: number; kind: "error"; error: string };

/** One session being derived: its batches pushed in replay order, then its share. */
export interface ShareJob {
  push(bytes: Uint8Array): Promise<BatchRead>;
  finish(): Promise<ShareRead>;
}

/** The worker ended before it answered: the session was not read, and stays queued. */
export class DeriveWorkerEnded extends Error {
  constructor() {
    super("the derive worker ended before answering");
  }
}

interface Waiting {
  resolve(value: BatchRead | ShareRead): void;
  reject(error: Error): void;
}

export class DerivePool {
  readonly #pool = new WorkerPool<DeriveWorkerMessage>(DERIVE_WORKER_URL, 1, {
    message: (_, data) => this.#settle(data),
    // One that failed to load would fail again: sessions are read inline from now on. One that
    // failed later took its sessions' batches: those fail (they are derived again next time).
    failed: (_, wasReady) => wasReady ? this.#fail() : this.close(),
  }, DERIVE_POOL);
  /** Each session's answers awaited, in order (a batch's, then the share's). */
  readonly #waiting = new Map<number, Waiting[]>();
  #nextId = 1;
  #closed = false;
  /** Sessions sent to a worker (tests read it). */
  jobs = 0;

  get closed(): boolean {
    return this.#closed;
  }

  /** A session to derive within `bounds`: in the worker, or inline once the pool is closed. */
  begin(bounds: DeriveBounds = DERIVE_BOUNDS): ShareJob {
    if (this.#closed) return inline(bounds);
    const worker: PooledWorker = this.#pool.workers[0] ?? this.#pool.start()!;
    const id = this.#nextId++;
    this.jobs++;
    this.#waiting.set(id, []);
    worker.post({ id, kind: "begin", bounds } satisfies DeriveHostMessage);
    const ask = <T>(message: DeriveHostMessage, transfer: Transferable[] = []) => {
      const queue = this.#waiting.get(id);
      if (!queue) return Promise.reject(new DeriveWorkerEnded());
      const answer = new Promise<T>((resolve, reject) =>
        queue.push({ resolve: resolve as Waiting["resolve"], reject })
      );
      worker.post(message, transfer);
      return answer;
    };
    return {
      push: (bytes) => {
        // its own buffer, transferred: the caller's bytes may be a view of a larger read (or a
        // node Buffer of the driver's pool, whose slice() is a view that cannot be detached)
        const copy = new ArrayBuffer(bytes.length);
        new Uint8Array(copy).set(bytes);
        return ask<BatchRead>({ id, kind: "batch", bytes: copy }, [copy]);
      },
      finish: () => ask<ShareRead>({ id, kind: "end" }),
    };
  }

  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#pool.close();
    this.#fail();
  }

  #settle(data: DeriveWorkerMessage) {
    if (!("id" in data)) return;
    const queue = this.#waiting.get(data.id);
    const next = queue?.shift();
    if (!queue || !next) return;
    if (data.kind === "error") {
      this.#waiting.delete(data.id);
      next.reject(new Error(`deriving a heatmap share: ${data.error}`));
      for (const rest of queue) rest.reject(new Error(data.error));
      return;
    }
    if (data.kind === "share") {
      this.#waiting.delete(data.id);
      return next.resolve({ share: data.share, clicks: data.clicks });
    }
    next.resolve(data.read);
  }

  #fail() {
    const error = new DeriveWorkerEnded();
    for (const queue of this.#waiting.values()) for (const w of queue) w.reject(error);
    this.#waiting.clear();
  }
}

/** The same reading on the main thread (the pool is closed or its worker could not load). */
function inline(bounds: DeriveBounds): ShareJob {
  const reader = new ShareReader(bounds);
  return {
    push: async (bytes) => {
      const read = await reader.push(bytes);
      await new Promise((resolve) => setTimeout(resolve, 0)); // other requests between batches
      return read;
    },
    finish: () => Promise.resolve(reader.share()),
  };
}
