// Starts the decoding worker and runs one events request at a time through it. Should the browser
// refuse the worker, the same decoding runs on the main thread, so the replay still loads.
import type { DecodeMessage, DecodeRequest, DecoderState } from "@/player/decode/decode_worker.ts";

export type OnDecoded = (message: DecodeMessage) => void;

export class EventLoader {
  #worker: Promise<Worker | null> | null = null;
  #queue: Promise<void> = Promise.resolve();
  #fallback: DecoderState | null = null;
  #abortFallback: AbortController | null = null;

  /**
   * Fetches and decodes `url` (absolute), calling `onDecoded` per message until done or failed.
   * `early`: the page fetches it itself, at once, and hands the answer's body to the worker, so the
   * worker's start-up does not hold the request (the page's preload of it is answered then).
   */
  load(url: string, onDecoded: OnDecoded, early = false): Promise<void> {
    const run = this.#queue.then(() => this.#run(url, onDecoded, early));
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

  async #run(url: string, onDecoded: OnDecoded, early: boolean): Promise<void> {
    const answer = early ? fetchBody(url) : Promise.resolve(undefined);
    const worker = await (this.#worker ??= startWorker());
    const body = await answer;
    if (!worker) return await this.#onMainThread(url, onDecoded, body);
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
        // The worker could not start: decode this request here instead (its body, if handed
        // over, went with the failed message: fetched again).
        this.#onMainThread(url, onDecoded).then(resolve);
      };
      if (!body) return worker.postMessage({ url } satisfies DecodeRequest);
      try {
        worker.postMessage({ url, body } satisfies DecodeRequest, [body]);
      } catch {
        // A browser that cannot transfer streams: the worker fetches it again.
        body.cancel();
        worker.postMessage({ url } satisfies DecodeRequest);
      }
    });
  }

  async #onMainThread(url: string, onDecoded: OnDecoded, body?: EventsBody) {
    const { decodeEvents, decoderState } = await import("@/player/decode/decode_worker.ts");
    this.#fallback ??= decoderState();
    const abort = this.#abortFallback = new AbortController();
    const messages = decodeEvents(url, this.#fallback, abort.signal, body);
    for await (const message of messages) onDecoded(message);
  }
}

type EventsBody = ReadableStream<Uint8Array<ArrayBuffer>>;

/**
 * The body of a successful answer to `url`; undefined otherwise (the worker then asks again). Raw
 * fetch, not utils/api_client.ts: the body goes to the worker unread, as a stream.
 */
async function fetchBody(url: string): Promise<EventsBody | undefined> {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (response.ok && response.body) return response.body;
    await response.body?.cancel();
  } catch {
    // the worker's own request reports the failure
  }
  return undefined;
}

async function startWorker(): Promise<Worker | null> {
  try {
    const { DECODE_WORKER_URL } = await import("@/player/decode/decode_worker.ts");
    return new Worker(DECODE_WORKER_URL, { type: "module", name: "replay-decoder" });
  } catch {
    return null;
  }
}
