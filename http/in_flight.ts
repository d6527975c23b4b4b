// Requests in flight per key (a signed-in account, a public link, a client's address group): past
// `max`, the key's next request is refused at once with 429 + Retry-After, so one key's load never
// makes another's requests wait (http/account_limit.ts, http/link_limits.ts).
import { rateLimited } from "@/core/errors.ts";

export interface InFlightLimit {
  /** Takes a place for `key` (429 past the limit); the returned function gives it back, once. */
  enter(key: string): () => void;
  /** Requests in flight for `key` (for tests). */
  inFlight(key: string): number;
}

/** `refusal` names what is over its limit: "more than 8 {refusal}". */
export function createInFlightLimit(
  max: number,
  refusal: string,
  retryAfterSeconds = 1,
): InFlightLimit {
  const counts = new Map<string, number>();
  return {
    enter(key) {
      const count = counts.get(key) ?? 0;
      if (count >= max) {
        throw rateLimited(`more than ${max} ${refusal} are under way; retry`, retryAfterSeconds);
      }
      counts.set(key, count + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const now = counts.get(key)! - 1;
        if (now === 0) counts.delete(key);
        else counts.set(key, now);
      };
    },
    inFlight: (key) => counts.get(key) ?? 0,
  };
}
