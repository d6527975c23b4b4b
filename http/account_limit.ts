// Dashboard requests in flight per signed-in account. 120 heavy parallel reads from one cookie
// made another organization's light reads wait seconds and some answer 503: past
// MAX_REQUESTS_PER_ACCOUNT, an account's next request is refused at once with 429 + Retry-After
// (it is that account's own load), and the others' requests never queue behind it. One limit per
// app holds the API's requests and the dashboard's page loads alike.
import type { AppDeps } from "@/core/deps.ts";
import { rateLimited } from "@/core/errors.ts";

/** A browser holds at most six connections to one host; a few tabs stay within this. */
export const MAX_REQUESTS_PER_ACCOUNT = 8;

export interface AccountLimit {
  /** Takes a place for `accountId` (429 past the limit); the returned function gives it back. */
  enter(accountId: string): () => void;
  /** Requests in flight for `accountId` (for tests). */
  inFlight(accountId: string): number;
}

export function createAccountLimit(max = MAX_REQUESTS_PER_ACCOUNT): AccountLimit {
  const counts = new Map<string, number>();
  return {
    enter(accountId) {
      const count = counts.get(accountId) ?? 0;
      if (count >= max) {
        throw rateLimited(`more than ${max} requests of this account are under way; retry`, 1);
      }
      counts.set(accountId, count + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const now = counts.get(accountId)! - 1;
        if (now === 0) counts.delete(accountId);
        else counts.set(accountId, now);
      };
    },
    inFlight: (accountId) => counts.get(accountId) ?? 0,
  };
}

/** One limit per app, shared by every dashboard sub-app and the pages. */
const accountLimits = new WeakMap<AppDeps, AccountLimit>();

/** The app's limit of dashboard requests in flight per account. */
export function accountLimitOf(deps: AppDeps): AccountLimit {
  let limit = accountLimits.get(deps);
  if (!limit) accountLimits.set(deps, limit = createAccountLimit());
  return limit;
}
