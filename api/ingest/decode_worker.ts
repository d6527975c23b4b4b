// A decode worker: gunzip, UTF-8, JSON.parse, validation and the preparation of
// the stored batch (stringify, hash, gzip, markers) of one ingest body at a time, off the main
// thread. Started by decode_pool.ts; it answers each job with the prepared row or the error.
import { parentPort } from "node:worker_threads";
import { AppError } from "../../core/errors.ts";
import { prepareIngest } from "../../core/ingest/prepare.ts";
import { decodeIngestWire, type DecodeJob, type DecodeReply, transferables } from "./decode.ts";

const port = parentPort!;
port.on("message", (job: DecodeJob) => {
  let reply: DecodeReply;
  try {
    const prepared = prepareIngest(decodeIngestWire(job));
    reply = { id: job.id, ok: true, prepared };
  } catch (error) {
    reply = error instanceof AppError
      ? {
        id: job.id,
        ok: false,
        error: { kind: error.kind, message: error.message, details: error.details },
      }
      : { id: job.id, ok: false, error: null, crash: String((error as Error)?.stack ?? error) };
  }
  port.postMessage(reply, reply.ok ? transferables(reply.prepared) : []);
});
