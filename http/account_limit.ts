// Dashboard requests in flight per signed-in account. 120 heavy parallel reads from one cookie
// made another organization's light reads wait seconds and some answer 503: past
// MAX_REQUESTS_PER_ACCOUNT, an account's next request is refused at once with 429 + Retry-After
// (it is that account's own load), and the others' requests never queue behind it. One limit per
// app holds the API's requests and the dashboard's page loads alike. An export holds a place of
// its own until its file has been sent (MAX_EXPORTS_PER_ACCOUNT): its answer starts at once and
// the work is in its body, which the request limit no longer sees.
import type { AppDeps } from "@/core/deps.ts";
import { createInFlightLimit, type InFlightLimit } from "./in_flight.ts";

/** A browser holds at most six connections to one host; a few tabs stay within this. */
export const MAX_REQUESTS_PER_ACCOUNT = 8;

/** Files one account downloads at once: each is a whole session decoded, cut and written. */
export const MAX_EXPORTS_PER_ACCOUNT = 2;
/** An export takes seconds: what its 429 asks the client to wait. */
export const EXPORT_RETRY_SECONDS = 5;

export type AccountLimit = InFlightLimit;

export function createAccountLimit(max = MAX_REQUESTS_PER_ACCOUNT): AccountLimit {
  return createInFlightLimit(max, "requests of this account");
}

/** One limit per app, shared by every dashboard sub-app and the pages; one for its exports. */
const accountLimits = new WeakMap<AppDeps, AccountLimit>();
const exportLimits = new WeakMap<AppDeps, AccountLimit>();

/** The app's limit of dashboard requests in flight per account. */
export function accountLimitOf(deps: AppDeps): AccountLimit {
  let limit = accountLimits.get(deps);
  if (!limit) accountLimits.set(deps, limit = createAccountLimit());
  return limit;
}

/** The app's limit of exports being written per account. */
export function exportLimitOf(deps: AppDeps): AccountLimit {
  let limit = exportLimits.get(deps);
  if (!limit) {
    limit = createInFlightLimit(
      MAX_EXPORTS_PER_ACCOUNT,
      "exports of this account",
      EXPORT_RETRY_SECONDS,
    );
    exportLimits.set(deps, limit);
  }
  return limit;
}
