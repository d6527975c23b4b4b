// The bytes of request bodies held at once, across requests, from the first byte read to the end
// of their decoding. Forty parallel 9.9 MiB bodies were each read whole before the decode budget
// refused them, and the process grew by 2.2 GB. A body declaring its length is admitted (or
// answered 503 + Retry-After) before a byte is read; a chunked one is counted as it arrives and
// refused once it would go past the budget. Small bodies, nearly all, are not counted.
import { unavailable } from "@/core/errors.ts";

/** Bodies up to this size are never refused for the budget: the SDK's usual batch, every form. */
export const SMALL_BODY_BYTES = 64 * 1024;
/** Bytes of larger bodies held at once: six bodies at the 10 MiB wire cap. */
export const MAX_BODY_BYTES_HELD = 64 * 1024 * 1024;

export interface BodyBudget {
  /** Takes `bytes` more for a body that has `already` read; throws 503 past the budget. */
  take(held: number, bytes: number): void;
  /** Gives back what one body took. */
  give(bytes: number): void;
  readonly held: number;
  /** The most bytes ever held at once (for tests and metrics). */
  readonly peak: number;
}

export function createBodyBudget(max = MAX_BODY_BYTES_HELD): BodyBudget {
  let held = 0;
  let peak = 0;
  return {
    take(already, bytes) {
      // What a body holds below SMALL_BODY_BYTES is free; only the rest counts.
      const own = Math.max(0, already - SMALL_BODY_BYTES);
      const counted = Math.max(0, already + bytes - SMALL_BODY_BYTES) - own;
      if (counted === 0) return;
      // One body alone is always admitted (the wire cap bounds it), however large the rest.
      if (held > own && held + counted > max) {
        throw unavailable("too many large bodies are being received; retry shortly", 1);
      }
      held += counted;
      peak = Math.max(peak, held);
    },
    give(bytes) {
      held -= Math.max(0, bytes - SMALL_BODY_BYTES);
    },
    get held() {
      return held;
    },
    get peak() {
      return peak;
    },
  };
}

/** The process's budget: memory is the process's. */
export const bodyBudget = createBodyBudget();
