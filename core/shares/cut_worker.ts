// The cut worker: decodes stored batches, cuts them (a link's window, an export) and writes them
// again (cut_job.ts) off the main thread. Several jobs at once, each moved on only when the main
// thread asks for its next piece (its reader's pace), each pulling the stored bytes it needs one
// batch at a time. Started and replaced by cut_pool.ts.
import {
  type CutHostMessage,
  type CutInput,
  type CutJob,
  type CutPiece,
  cutPieces,
  type CutWorkerMessage,
} from "./cut_job.ts";

// A module worker's global scope; Deno types this file as the main thread's.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CutHostMessage>) => void) | null;
  postMessage(message: CutWorkerMessage): void;
};

interface Running {
  pieces: AsyncGenerator<CutPiece>;
  /** The pull this job awaits. */
  answer: ((message: CutHostMessage) => void) | null;
  ended: boolean;
}

const jobs = new Map<number, Running>();

scope.onmessage = ({ data }) => {
  if ("job" in data) return start(data.id, data.job);
  const job = jobs.get(data.id);
  if (!job) return;
  if ("next" in data) return void step(data.id, job);
  if ("cancel" in data) {
    jobs.delete(data.id);
    job.ended = true;
    const answer = job.answer;
    job.answer = null;
    answer?.({ id: data.id, input: null }); // a pull in progress sees the end
    return void job.pieces.return(undefined).catch(() => {});
  }
  const answer = job.answer;
  job.answer = null;
  answer?.(data);
};

function start(id: number, job: CutJob) {
  const running: Running = { pieces: cutPieces(job, inputs(id)), answer: null, ended: false };
  jobs.set(id, running);

  async function* inputs(id: number): AsyncGenerator<CutInput> {
    for (;;) {
      if (running.ended) return;
      const reply = await new Promise<CutHostMessage>((resolve) => {
        running.answer = resolve;
        scope.postMessage({ id, pull: true });
      });
      if ("unreadable" in reply) throw new Error("a stored batch could not be read");
      if (!("input" in reply) || !reply.input) return;
      yield reply.input;
    }
  }
}

async function step(id: number, job: Running) {
  let message: CutWorkerMessage;
  try {
    const next = await job.pieces.next();
    message = next.done ? { id, done: true } : { id, piece: next.value };
  } catch (error) {
    message = { id, failed: String(error) };
  }
  if (job.ended) return; // cancelled meanwhile: nobody reads it
  if (!("piece" in message)) jobs.delete(id);
  scope.postMessage(message);
}

scope.postMessage({ ready: true });
