// The worker that opens sealed batches (open_pool.ts): each job is one read's buffer and the
// batches in it, opened under the session's data key with openBatch, each answered as soon as it
// opens (its gzip bytes, transferred, or null where it does not open), so the reader sends the
// first batches while the worker opens the next. The key is never logged.
import { openBatch, SealError } from "./seal.ts";
import type { OpenJob, OpenWorkerMessage } from "./open_pool.ts";

// A module worker's global scope; Deno types this file as the main thread's.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<OpenJob>) => void) | null;
  postMessage(message: OpenWorkerMessage, transfer?: Transferable[]): void;
};

scope.onmessage = ({ data }) => void run(data);

async function run({ id, key, place, buffer, items }: OpenJob) {
  try {
    const dataKey = await crypto.subtle.importKey(
      "raw",
      key as Uint8Array<ArrayBuffer>,
      "AES-GCM",
      false,
      ["decrypt"],
    );
    for (const [index, { batchId, offset, length }] of items.entries()) {
      const sealed = new Uint8Array(buffer, offset, length);
      const opened = await openBatch(dataKey, { ...place, batchId }, sealed).then(
        (bytes) => bytes.buffer as ArrayBuffer,
        (error) => {
          if (error instanceof SealError) return null;
          throw error;
        },
      );
      scope.postMessage({ id, index, opened }, opened ? [opened] : []);
    }
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.name : "unknown" });
  }
}

scope.postMessage({ ready: true });
