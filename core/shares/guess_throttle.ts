// Token guessing, throttled per client address (docs/decisions.md "Shares"): past MAX_MISSES
// unknown tokens in a sliding minute, an address is answered 429 without a lookup until its oldest
// miss leaves the window. Kept in this process (a guess costs one indexed lookup, not a mail): the
// addresses held are bounded, the oldest forgotten first.

export const MAX_MISSES = 20;
export const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 10_000;

export class GuessThrottle {
  #misses = new Map<string, number[]>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = MAX_MISSES,
    private readonly windowMs = WINDOW_MS,
  ) {}

  #recent(address: string): number[] {
    const since = this.now() - this.windowMs;
    const misses = (this.#misses.get(address) ?? []).filter((t) => t > since);
    if (misses.length) this.#misses.set(address, misses);
    else this.#misses.delete(address);
    return misses;
  }

  /** Seconds until the address may look a token up again; 0 when it may now. */
  retryAfter(address: string): number {
    const misses = this.#recent(address);
    if (misses.length < this.max) return 0;
    return Math.max(
      1,
      Math.ceil((misses[misses.length - this.max] + this.windowMs - this.now()) / 1000),
    );
  }

  /** One unknown token from this address. */
  miss(address: string): void {
    const misses = this.#recent(address);
    misses.push(this.now());
    this.#misses.delete(address); // re-inserted last: the map's order is the forgetting order
    this.#misses.set(address, misses);
    if (this.#misses.size > MAX_ADDRESSES) {
      this.#misses.delete(this.#misses.keys().next().value!);
    }
  }
}

const perApp = new WeakMap<object, GuessThrottle>();

/** The throttle of one running app (its deps), so two apps in one process count apart. */
export function guessThrottleOf(deps: object): GuessThrottle {
  let throttle = perApp.get(deps);
  if (!throttle) perApp.set(deps, throttle = new GuessThrottle());
  return throttle;
}

/** Gives an app a throttle of its own (a test's, on a controlled clock). */
export function setGuessThrottle(deps: object, throttle: GuessThrottle): void {
  perApp.set(deps, throttle);
}
