// The one type of the server's worker pools: the ingest decode workers (api/ingest/decode_pool.ts),
// the frame worker (core/sessions/frame_pool.ts), the cut worker (core/shares/cut_pool.ts), the
// worker opening sealed batches (core/storage/open_pool.ts) and the heatmaps' derive worker
// (core/heatmaps/derive_pool.ts) are each a WorkerPool of their script,
// owned by the app's deps (core/deps.ts) and ended with them.
// A worker is a Deno module Worker (not node:worker_threads: its postMessage of a transferred
// 10 MB buffer took ~3 s and ~300 MB, Deno's ~35 ms and nothing), started when a pool's user asks
// for one, up to the pool's size; it takes messages once its code has loaded (what is posted
// before waits, in order), says so with `{ ready: true }`, and is ended when it fails (its uncaught
// error never ends the server) or when its user ends it. `close()` ends every worker.
import { log } from "@/log.ts";

/** What a worker says once, when its code has loaded and it takes messages. */
export interface WorkerReady {
  ready: true;
}

export interface PoolEvents<Out> {
  /** A message of `worker` (its `ready` excepted). */
  message(worker: PooledWorker, data: Out): void;
  /** `worker`'s code has loaded: what was posted to it is delivered now. */
  ready?(worker: PooledWorker): void;
  /** `worker` failed and is ended; `wasReady`: its code had loaded. */
  failed(worker: PooledWorker, wasReady: boolean): void;
}

/** One worker of a pool. */
export class PooledWorker {
  #ready = false;
  #ended = false;
  #outbox: Array<[unknown, Transferable[]]> = [];

  constructor(
    /** The worker's number in its pool, from 1 (0 is the main thread). */
    readonly thread: number,
    readonly worker: Worker,
  ) {}

  get ready(): boolean {
    return this.#ready;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Posts now, or once the worker's code has loaded; nothing once it has ended. */
  post(message: unknown, transfer: Transferable[] = []) {
    if (this.#ended) return;
    if (!this.#ready) return void this.#outbox.push([message, transfer]);
    this.worker.postMessage(message, transfer);
  }

  /** Its code has loaded: what waited is posted. */
  loaded() {
    this.#ready = true;
    for (const [message, transfer] of this.#outbox.splice(0)) {
      this.worker.postMessage(message, transfer);
    }
  }

  /** Ends the worker at once; it says nothing more. */
  end() {
    if (this.#ended) return;
    this.#ended = true;
    this.#outbox = [];
    this.worker.onmessage = this.worker.onerror = null;
    this.worker.terminate();
  }
}

export class WorkerPool<Out> {
  readonly #workers = new Set<PooledWorker>();
  #nextThread = 1;
  /** Workers started (tests and the benchmark read it). */
  started = 0;

  constructor(
    private readonly url: URL,
    /** Workers at most at once. */
    readonly size: number,
    private readonly events: PoolEvents<Out>,
    /** Names the pool in its log lines (`<name>:worker_failed`). */
    private readonly name: string,
  ) {}

  /** The workers alive, in the order they were started. */
  get workers(): PooledWorker[] {
    return [...this.#workers];
  }

  /** Workers alive whose code is still loading. */
  get starting(): number {
    let count = 0;
    for (const worker of this.#workers) if (!worker.ready) count++;
    return count;
  }

  /** Starts a worker, or null when the pool has its size. */
  start(): PooledWorker | null {
    if (this.#workers.size >= this.size) return null;
    const pooled = new PooledWorker(
      this.#nextThread++,
      new Worker(this.url, { type: "module" }),
    );
    this.#workers.add(pooled);
    this.started++;
    pooled.worker.onmessage = ({ data }: MessageEvent<Out | WorkerReady>) => {
      if (data && typeof data === "object" && "ready" in data && data.ready === true) {
        pooled.loaded();
        return this.events.ready?.(pooled);
      }
      this.events.message(pooled, data as Out);
    };
    pooled.worker.onerror = (event: ErrorEvent) => {
      event.preventDefault(); // a worker's uncaught error must not end the server
      log.error(`${this.name}:worker_failed`, { error: event.message });
      const wasReady = pooled.ready;
      this.end(pooled);
      this.events.failed(pooled, wasReady);
    };
    return pooled;
  }

  /** Ends one worker; the pool may start another in its place. */
  end(pooled: PooledWorker) {
    pooled.end();
    this.#workers.delete(pooled);
  }

  /** Ends every worker. */
  close() {
    for (const pooled of this.#workers) pooled.end();
    this.#workers.clear();
  }
}

interface Closable {
  close(): void;
}

/**
 * Pools made for the app on their first use (the ingest decode workers, the heatmaps' derive
 * worker), kept by name for the app's lifetime: `close()` ends them with the app's deps.
 */
export class AppPools {
  readonly #pools = new Map<string, Closable>();

  get<T extends Closable>(name: string, make: () => T): T {
    let pool = this.#pools.get(name);
    if (!pool) this.#pools.set(name, pool = make());
    return pool as T;
  }

  close() {
    for (const pool of this.#pools.values()) pool.close();
    this.#pools.clear();
  }
}
