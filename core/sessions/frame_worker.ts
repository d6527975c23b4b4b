// The frame worker: draws the server's replay frames (frame_job.ts) off the main thread, one job
// at a time. Inflating, parsing a large snapshot and writing its HTML cannot be split into short
// steps; here they hold no request. It pulls each batch and slice of stored bytes from the main
// thread as it needs them. Started and replaced by core/sessions/frame_pool.ts.
import {
  drawFrame,
  type FrameBatch,
  type FrameHostMessage,
  type FrameJob,
  type FrameResult,
  type FrameWorkerMessage,
} from "./frame_job.ts";

// A module worker's global scope; Deno types this file as the main thread's.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<FrameHostMessage>) => void) | null;
  postMessage(message: FrameWorkerMessage): void;
};

/** The answer the running job awaits. */
let answer: ((message: FrameHostMessage) => void) | null = null;

scope.onmessage = ({ data }) => {
  if ("job" in data) return void run(data.id, data.job);
  const take = answer;
  answer = null;
  take?.(data);
};

function pull(id: number, what: "batch" | "slice"): Promise<FrameHostMessage> {
  return new Promise((resolve) => {
    answer = resolve;
    scope.postMessage({ id, pull: what });
  });
}

async function* batches(id: number): AsyncGenerator<FrameBatch> {
  for (;;) {
    const reply = await pull(id, "batch");
    if ("failed" in reply && reply.failed) throw new Error("a stored batch could not be read");
    if (!("batch" in reply) || !reply.batch) return;
    yield { span: reply.batch.span, bytes: slices(id) };
  }
}

async function* slices(id: number): AsyncGenerator<Uint8Array> {
  for (;;) {
    const reply = await pull(id, "slice");
    if ("failed" in reply && reply.failed) throw new Error("a stored batch could not be read");
    if (!("slice" in reply) || !reply.slice) return;
    yield reply.slice;
  }
}

async function run(id: number, job: FrameJob) {
  let result: FrameResult;
  try {
    result = await drawFrame(job, batches(id));
  } catch (error) {
    console.error("frame worker:", error);
    result = { frame: null, failure: "corrupt", events: 0 };
  }
  scope.postMessage({ id, result });
}

scope.postMessage({ ready: true });
