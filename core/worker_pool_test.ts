import assert from "node:assert/strict";
import { type PooledWorker, WorkerPool } from "./worker_pool.ts";

/** A worker that says it is ready, echoes each message, and throws on "fail". */
const ECHO = new URL(
  "data:application/javascript," + encodeURIComponent(`
    self.onmessage = ({ data }) => {
      if (data === "fail") throw new Error("asked to fail");
      self.postMessage({ echo: data });
    };
    self.postMessage({ ready: true });
  `),
);

function echoPool(size: number) {
  const heard: Array<[number, unknown]> = [];
  const failures: Array<[number, boolean]> = [];
  const ready: number[] = [];
  let next = Promise.withResolvers<void>();
  const pool = new WorkerPool<{ echo: unknown }>(ECHO, size, {
    ready: (worker) => ready.push(worker.thread),
    message: (worker, data) => {
      heard.push([worker.thread, data.echo]);
      next.resolve();
    },
    failed: (worker, wasReady) => {
      failures.push([worker.thread, wasReady]);
      next.resolve();
    },
  }, "test:echo");
  /** Resolves at the next message or failure; rejects if none comes within 5 s (a bound on the
   * wait, not a sleep: a worker answers in milliseconds). */
  const event = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no message from the worker")), 5_000);
    });
    try {
      await Promise.race([next.promise, bound]);
    } finally {
      clearTimeout(timer);
    }
    next = Promise.withResolvers();
  };
  return { pool, heard, failures, ready, event };
}

Deno.test("worker pool: what is posted before the code loads arrives, in order, once it has", async () => {
  const { pool, heard, ready, event } = echoPool(1);
  try {
    const worker = pool.start()!;
    assert.equal(worker.ready, false);
    worker.post("a");
    worker.post("b");
    await event();
    await event();
    assert.deepEqual(ready, [1]);
    assert.deepEqual(heard, [[1, "a"], [1, "b"]]);
  } finally {
    pool.close();
  }
});

Deno.test("worker pool: no more workers than its size; one ended makes room for the next", () => {
  const { pool } = echoPool(2);
  try {
    const a = pool.start()!;
    const b = pool.start()!;
    assert.equal(pool.start(), null, "a third past the size of 2");
    assert.deepEqual(pool.workers.map((w) => w.thread), [1, 2]);
    pool.end(a);
    assert.equal(a.ended, true);
    const c = pool.start()!;
    assert.deepEqual(pool.workers.map((w: PooledWorker) => w.thread), [2, 3]);
    assert.equal(pool.started, 3);
    assert.notEqual(b, c);
  } finally {
    pool.close();
  }
  assert.deepEqual(pool.workers, [], "close() ends every worker");
});

Deno.test("worker pool: a worker that fails is ended and told, and the server goes on", async () => {
  const { pool, heard, failures, event } = echoPool(1);
  try {
    const worker = pool.start()!;
    worker.post("fail");
    await event();
    assert.deepEqual(failures, [[1, true]]);
    assert.equal(worker.ended, true);
    assert.deepEqual(pool.workers, []);
    worker.post("after"); // an ended worker takes nothing
    const fresh = pool.start()!;
    fresh.post("again");
    await event();
    assert.deepEqual(heard, [[2, "again"]]);
  } finally {
    pool.close();
  }
});
