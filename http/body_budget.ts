// The bytes of request bodies held at once, across requests, from the first byte read to the end
// of their decoding: a gzip body's inflated bytes, counted as they come (./inflate.ts). Forty
// parallel 9.9 MiB bodies were each read whole before the decode budget refused them, and the
// process grew by 2.2 GB. A body declaring its length is admitted (or answered 503 + Retry-After)
// before a byte is read; a chunked or inflating one is counted as it grows and refused once it
// would go past the budget. An owner (ingest's public key) holds at most half of it, so one key's
// flood leaves room for another's bodies. Small bodies, nearly all, are not counted.
import { unavailable } from "@/core/errors.ts";

/** Bodies up to this size are never refused for the budget: the SDK's usual batch, every form. */
export const SMALL_BODY_BYTES = 64 * 1024;
/**
 * Bytes of larger bodies held at once: what was held before bodies were inflated as they arrive
 * (64 MiB on the wire, and two decode workers' 32 MiB each).
 */
export const MAX_BODY_BYTES_HELD = 128 * 1024 * 1024;

export interface BodyBudget {
  /**
   * Takes `bytes` more for a body that has `already` taken, for `owner` if it has one; throws 503
   * past the budget or past the owner's share.
   */
  take(already: number, bytes: number, owner?: string): void;
  /** Gives back what one body took. */
  give(bytes: number, owner?: string): void;
  readonly held: number;
  /** What `owner`'s bodies hold now. */
  heldBy(owner: string): number;
  /** The most bytes ever held at once (for tests and metrics). */
  readonly peak: number;
}

export function createBodyBudget(max = MAX_BODY_BYTES_HELD): BodyBudget {
  const share = max / 2;
  let held = 0;
  let peak = 0;
  const owners = new Map<string, number>();
  /** What a body of `size` bytes counts for: what it holds past SMALL_BODY_BYTES. */
  const counted = (size: number) => Math.max(0, size - SMALL_BODY_BYTES);
  return {
    take(already, bytes, owner) {
      const own = counted(already);
      const more = counted(already + bytes) - own;
      if (more === 0) return;
      const ownerHeld = owner === undefined ? 0 : owners.get(owner) ?? 0;
      // One body alone is always admitted (the caps bound it); an owner's only one past its share.
      if (
        (held > own && held + more > max) ||
        (owner !== undefined && ownerHeld > own && ownerHeld + more > share)
      ) {
        throw unavailable("too many large bodies are being received; retry shortly", 1);
      }
      held += more;
      if (owner !== undefined) owners.set(owner, ownerHeld + more);
      peak = Math.max(peak, held);
    },
    give(bytes, owner) {
      const less = counted(bytes);
      held -= less;
      if (owner === undefined || less === 0) return;
      const left = (owners.get(owner) ?? 0) - less;
      if (left > 0) owners.set(owner, left);
      else owners.delete(owner);
    },
    get held() {
      return held;
    },
    heldBy: (owner) => owners.get(owner) ?? 0,
    get peak() {
      return peak;
    },
  };
}

/** The process's budget: memory is the process's. */
export const bodyBudget = createBodyBudget();
