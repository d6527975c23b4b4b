// The worker deriving heatmap shares (./derive_pool.ts): inflating, parsing and walking a
// session's batches (./share_reader.ts) off the main thread, one batch per message, each answered
// with what was read so far; `end` answers the session's rows. Sessions are told apart by id.
import { ShareReader } from "./share_reader.ts";
import type { DeriveHostMessage, DeriveWorkerMessage } from "./derive_pool.ts";

// A module worker's global scope; Deno types this file as the main thread's.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<DeriveHostMessage>) => void) | null;
  postMessage(message: DeriveWorkerMessage): void;
};

const readers = new Map<number, ShareReader>();
/** Messages run one after another: a batch's answer before the next batch is read. */
let queue: Promise<void> = Promise.resolve();

scope.onmessage = ({ data }) => {
  queue = queue.then(() => run(data));
};

async function run(message: DeriveHostMessage) {
  const { id } = message;
  try {
    if (message.kind === "begin") {
      readers.set(id, new ShareReader(message.bounds));
    } else if (message.kind === "batch") {
      const reader = readers.get(id);
      if (!reader) throw new Error("no such session");
      scope.postMessage({
        id,
        kind: "batch",
        read: await reader.push(new Uint8Array(message.bytes)),
      });
    } else {
      const reader = readers.get(id);
      readers.delete(id);
      if (!reader) throw new Error("no such session");
      scope.postMessage({ id, kind: "share", ...reader.share() });
    }
  } catch (error) {
    readers.delete(id);
    scope.postMessage({
      id,
      kind: "error",
      error: error instanceof Error ? error.message : "unknown",
    });
  }
}

scope.postMessage({ ready: true });
