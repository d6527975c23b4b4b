// A decode worker: gunzip, UTF-8, JSON.parse, validation and the preparation of
// the stored batch (stringify, hash, gzip, markers) of one ingest body at a time, off the main
// thread. Started by decode_pool.ts; it answers each job with the prepared row or the error.
import { AppError } from "@/core/errors.ts";
import { prepareIngest } from "@/core/ingest/prepare.ts";
import {
  decodeIngestWire,
  type DecodeJob,
  type DecodeReply,
  transferables,
  type WorkerReady,
} from "./decode.ts";

// A module worker's global scope; Deno types this file as the main thread's.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<DecodeJob>) => void) | null;
  postMessage(message: DecodeReply | WorkerReady, transfer: Transferable[]): void;
};

scope.onmessage = ({ data: job }) => {
  let reply: DecodeReply;
  try {
    const { body, sent } = decodeIngestWire(job);
    const prepared = prepareIngest(body, sent);
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
  scope.postMessage(reply, reply.ok ? transferables(reply.prepared) : []);
};

scope.postMessage({ ready: true }, []);
