// Public links' requests in flight (docs/decisions.md "Shares"): a link's page and events need no
// account, so their load is bounded per link and per client address group instead (8 × 2
// parallel views from one address once held health 4.4 s and ingest 3.5 s): past either limit the
// next request is refused at once with 429 + Retry-After, before any lookup.
import type { AppDeps } from "@/core/deps.ts";
import { TOKEN_PATTERN } from "@/core/shares/token.ts";
import { createInFlightLimit, type InFlightLimit } from "./in_flight.ts";

/** A link's page and events in flight at once, from everyone (a link handed to a team). */
export const MAX_REQUESTS_PER_LINK = 8;
/** Link requests in flight at once from one address group: two viewers' page and events. */
export const MAX_LINK_REQUESTS_PER_ADDRESS = 4;

export interface LinkLimits {
  /** Takes a place of the link and of the address (429 past either); gives both back, once. */
  enter(token: string, address: string): () => void;
  readonly perLink: InFlightLimit;
  readonly perAddress: InFlightLimit;
}

const limits = new WeakMap<AppDeps, LinkLimits>();

/** The app's limits of link requests in flight. */
export function linkLimitsOf(deps: AppDeps): LinkLimits {
  let found = limits.get(deps);
  if (!found) limits.set(deps, found = createLinkLimits());
  return found;
}

export function createLinkLimits(
  perLinkMax = MAX_REQUESTS_PER_LINK,
  perAddressMax = MAX_LINK_REQUESTS_PER_ADDRESS,
): LinkLimits {
  const perLink = createInFlightLimit(perLinkMax, "requests of this link");
  const perAddress = createInFlightLimit(perAddressMax, "link requests from this address");
  return {
    perLink,
    perAddress,
    enter(token, address) {
      // Not a token's shape: the 404 without a lookup, which costs nothing to hold.
      if (!TOKEN_PATTERN.test(token)) return () => {};
      const leaveAddress = perAddress.enter(address);
      let leaveLink: () => void;
      try {
        leaveLink = perLink.enter(token);
      } catch (error) {
        leaveAddress();
        throw error;
      }
      return () => {
        leaveAddress();
        leaveLink();
      };
    },
  };
}
