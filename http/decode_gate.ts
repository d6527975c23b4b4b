// Decoding a large request body (gunzip, JSON.parse, validation) is synchronous work of tens to
// hundreds of milliseconds and tens of MiB: run one at a time so a burst of them cannot hold the
// event loop or the memory for everyone, and refuse to queue without bound.
import pLimit from "p-limit";
import { unavailable } from "@/core/errors.ts";

export interface DecodeGate {
  run<T>(work: () => Promise<T> | T): Promise<T>;
  /** The most decodes that ever ran at once (for tests and metrics). */
  readonly peak: number;
}

export function createDecodeGate(options: { concurrency: number; maxQueued: number }): DecodeGate {
  const limit = pLimit(options.concurrency);
  let peak = 0;
  return {
    get peak() {
      return peak;
    },
    run(work) {
      if (limit.pendingCount >= options.maxQueued) {
        throw unavailable("too many large bodies are being decoded; retry shortly", 1);
      }
      return limit(() => {
        peak = Math.max(peak, limit.activeCount);
        return work();
      });
    },
  };
}
