// Starts the decoding worker and runs one events request at a time through it. Should the browser
// refuse the worker, the same decoding runs on the main thread, so the replay still loads.
import type { DecodeMessage, DecodeRequest, DecoderState } from "./decode_worker.ts";

export type OnDecoded = (message: DecodeMessage) => void;

export class EventLoader {
  #worker: Promise<Worker | null> | null = null;
  #queue: Promise<void> = Promise.resolve();
  #fallback: DecoderState | null = null;
  #abortFallback: AbortController | null = null;

  /** Fetches and decodes `url` (absolute), calling `onDecoded` per message until done or failed. */
  load(url: string, onDecoded: OnDecoded): Promise<void> {
    const run = this.#queue.then(() => this.#run(url, onDecoded));
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Stops the request running (it ends with `stopped`); the ones queued still run. */
  abort() {
    this.#worker?.then((worker) => worker?.postMessage({ abort: true } satisfies DecodeRequest));
    this.#abortFallback?.abort();
  }

  stop() {
    this.#worker?.then((worker) => worker?.terminate());
    this.#worker = null;
  }

  async #run(url: string, onDecoded: OnDecoded): Promise<void> {
    const worker = await (this.#worker ??= startWorker());
    if (!worker) return await this.#onMainThread(url, onDecoded);
    await new Promise<void>((resolve) => {
      let heard = false;
      worker.onmessage = (message: MessageEvent<DecodeMessage>) => {
        heard = true;
        onDecoded(message.data);
        const kind = message.data.kind;
        if (kind === "done" || kind === "failed" || kind === "stopped") resolve();
      };
      worker.onerror = (error) => {
        error.preventDefault();
        this.#worker = Promise.resolve(null);
        if (heard) {
          onDecoded({ kind: "failed", status: 0, message: error.message });
          return resolve();
        }
        // The worker could not start: decode this request here instead.
        this.#onMainThread(url, onDecoded).then(resolve);
      };
      worker.postMessage({ url } satisfies DecodeRequest);
    });
  }

  async #onMainThread(url: string, onDecoded: OnDecoded) {
    const { decodeEvents, decoderState } = await import("./decode_worker.ts");
    this.#fallback ??= decoderState();
    const abort = this.#abortFallback = new AbortController();
    for await (const message of decodeEvents(url, this.#fallback, abort.signal)) onDecoded(message);
  }
}

async function startWorker(): Promise<Worker | null> {
  try {
    const { DECODE_WORKER_URL } = await import("./decode_worker.ts");
    return new Worker(DECODE_WORKER_URL, { type: "module", name: "replay-decoder" });
  } catch {
    return null;
  }
}
