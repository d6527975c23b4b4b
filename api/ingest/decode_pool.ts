// A small pool of decode workers. Eight ~1 MiB gzip bodies that inflate to ~31 MiB
// held every other request for 1.3 s while the main thread decoded them; here they are decoded in
// workers (the second core), the main thread only hands over bytes. What may be in flight is
// budgeted in the bytes each body decodes (inflated as it arrived, http/body.ts), not its wire
// size nor requests: past the budget, or past half of it for one public key, a body is refused at
// once with 503 + Retry-After (the SDK retries). The keys' bodies wait in turn (./fair_queue.ts),
// so one key's flood never queues another key's batch behind all of it.
// A job past DECODE_JOB_TIMEOUT_MS ends with its worker (413): no body holds a worker longer.
// The workers are a WorkerPool (core/worker_pool.ts) of INGEST_DECODE_WORKERS, one per app
// (`decodePoolOf`), ended when the app's deps are closed.
import { AppError, payloadTooLarge, unavailable } from "@/core/errors.ts";
import type { PreparedIngest } from "@/core/ingest/prepare.ts";
import { MAX_BODY_BYTES_HELD } from "@/http/body_budget.ts";
import { log } from "@/log.ts";
import type { AppDeps } from "@/core/deps.ts";
import { type PooledWorker, WorkerPool } from "@/core/worker_pool.ts";
import { type DecodeJob, type DecodeReply, type IngestWire, own } from "./decode.ts";
import { createFairQueue } from "./fair_queue.ts";

export interface DecodePool {
  /** Decodes and prepares one body of `key` in a worker, weighed by its (inflated) bytes. */
  decode(wire: IngestWire, key: string): Promise<PreparedIngest>;
  /** Bytes admitted and not yet answered. */
  readonly bytesInFlight: number;
  /** Bodies waiting for a worker, and bodies a worker is decoding now (the metrics). */
  readonly queued: number;
  readonly decoding: number;
  /** Bodies decoded so far, by all workers (for tests). */
  readonly decoded: number;
  /** The most bodies decoding at once, and the threads they were decoded on (for tests). */
  readonly peak: number;
  readonly threads: ReadonlySet<number>;
  /** Ends the workers; bodies waiting or decoding are refused (503). */
  close(): void;
}

/** Timers a pool sets; tests hand in their own to end a job at a moment of their choosing. */
export interface PoolTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMERS: PoolTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as number),
};

/** The longest one body may take to decode; real ones take well under a second when idle. */
export const DECODE_JOB_TIMEOUT_MS = 15_000;

interface Pending {
  job: DecodeJob;
  key: string;
  weight: number;
  timer?: unknown;
  resolve(prepared: PreparedIngest): void;
  reject(error: Error): void;
}

const WORKER_URL = new URL("./decode_worker.ts", import.meta.url);

export function createDecodePool(
  options: {
    workers: number;
    maxBytesInFlight: number;
    jobTimeoutMs?: number;
    timers?: PoolTimers;
  },
): DecodePool {
  const timers = options.timers ?? REAL_TIMERS;
  const jobTimeoutMs = options.jobTimeoutMs ?? DECODE_JOB_TIMEOUT_MS;
  const idle: PooledWorker[] = [];
  const busy = new Map<PooledWorker, Pending>();
  const queue = createFairQueue<Pending>();
  /** Bytes in flight by key, for the key's share (half the budget). */
  const keyBytes = new Map<string, number>();
  let bytesInFlight = 0;
  let decoded = 0;
  let peak = 0;
  const threads = new Set<number>();
  let nextId = 1;

  const workers = new WorkerPool<DecodeReply>(WORKER_URL, options.workers, {
    // A worker takes jobs once its code is loaded: the job's time never counts its start.
    ready: (worker) => {
      idle.push(worker);
      pump();
    },
    message: (worker, reply) => {
      const pending = busy.get(worker);
      busy.delete(worker);
      if (pending) {
        timers.clear(pending.timer);
        settle(pending, reply);
      }
      idle.push(worker);
      pump();
    },
    failed: (worker) => {
      const pending = busy.get(worker);
      busy.delete(worker);
      if (idle.includes(worker)) idle.splice(idle.indexOf(worker), 1);
      if (pending) {
        timers.clear(pending.timer);
        finish(pending, () => pending.reject(new Error("decode worker failed")));
      }
      pump();
    },
  }, "ingest:decode");

  /** Ends a job that outlived its time with its worker; the next job starts a fresh one. */
  const expire = (worker: PooledWorker) => {
    const pending = busy.get(worker);
    if (!pending) return;
    busy.delete(worker);
    workers.end(worker);
    log.warn("ingest:decode:timed_out", { weight: pending.weight, jobTimeoutMs });
    finish(
      pending,
      () => pending.reject(payloadTooLarge(`body took over ${jobTimeoutMs} ms to decode`)),
    );
    pump();
  };

  const finish = (pending: Pending, done: () => void) => {
    bytesInFlight -= pending.weight;
    const left = keyBytes.get(pending.key)! - pending.weight;
    if (left > 0) keyBytes.set(pending.key, left);
    else keyBytes.delete(pending.key);
    done();
  };

  const settle = (pending: Pending, reply: DecodeReply) => {
    decoded++;
    if (reply.ok) return finish(pending, () => pending.resolve(reply.prepared));
    const error = reply.error
      ? new AppError(reply.error.kind, reply.error.message, reply.error.details)
      : new Error(`decode worker: ${reply.crash}`);
    finish(pending, () => pending.reject(error));
  };

  const pump = () => {
    while (queue.length) {
      const worker = idle.pop();
      if (!worker) {
        // Start as many workers as the queue could use, up to the pool's size.
        while (workers.starting < queue.length && workers.start());
        return;
      }
      const pending = queue.shift()!;
      busy.set(worker, pending);
      peak = Math.max(peak, busy.size);
      threads.add(worker.thread);
      pending.timer = timers.set(() => expire(worker), jobTimeoutMs);
      const bytes = own(pending.job.bytes);
      const gzip = pending.job.gzip && own(pending.job.gzip);
      const transfer = [bytes.buffer as ArrayBuffer];
      if (gzip) transfer.push(gzip.buffer as ArrayBuffer);
      worker.post({ ...pending.job, bytes, gzip }, transfer);
    }
  };

  const pool: DecodePool = {
    get bytesInFlight() {
      return bytesInFlight;
    },
    get queued() {
      return queue.length;
    },
    get decoding() {
      return busy.size;
    },
    get decoded() {
      return decoded;
    },
    get peak() {
      return peak;
    },
    threads,
    decode(wire, key) {
      const weight = wire.bytes.byteLength + (wire.gzip?.byteLength ?? 0);
      const held = keyBytes.get(key) ?? 0;
      // A body alone is always admitted (the caps bound it); a key's only one past its share.
      if (
        (bytesInFlight > 0 && bytesInFlight + weight > options.maxBytesInFlight) ||
        (held > 0 && held + weight > options.maxBytesInFlight / 2)
      ) {
        throw unavailable("too many large bodies are being decoded; retry shortly", 1);
      }
      bytesInFlight += weight;
      keyBytes.set(key, held + weight);
      return new Promise((resolve, reject) => {
        queue.push(key, { job: { id: nextId++, ...wire }, key, weight, resolve, reject });
        pump();
      });
    },
    close() {
      workers.close();
      idle.length = 0;
      const refused = () => unavailable("the decode workers were closed; retry shortly", 1);
      for (const [worker, pending] of [...busy]) {
        busy.delete(worker);
        timers.clear(pending.timer);
        finish(pending, () => pending.reject(refused()));
      }
      for (let pending = queue.shift(); pending; pending = queue.shift()) {
        finish(pending, () => pending!.reject(refused()));
      }
    },
  };
  return pool;
}

/** Bytes of bodies admitted at once, queued or decoding: as many as bodies may hold. */
export const MAX_BYTES_IN_FLIGHT = MAX_BODY_BYTES_HELD;

/** Each app's pool (started on its first large body, ended with its deps); null with 0 workers. */
export function decodePoolOf(deps: Pick<AppDeps, "config" | "workers">): DecodePool | null {
  const workers = deps.config.ingestDecodeWorkers;
  if (workers === 0) return null;
  return deps.workers.get(
    "ingest:decode",
    () => createDecodePool({ workers, maxBytesInFlight: MAX_BYTES_IN_FLIGHT }),
  );
}
