// A browser's storage for the SDK journal's unit tests: an in-memory IndexedDB (fake-indexeddb)
// and Web Locks whose holder can be killed (its locks freed, as when a tab or browser dies).
// Import it before any SDK module: sdk/journal/journal.ts reads both when it loads.
import "fake-indexeddb/auto";

type Use = (lock: { name: string } | null) => Promise<unknown>;

/** `navigator.locks` for one process: exclusive locks by name, `ifAvailable` honoured. */
class FakeLocks {
  #held = new Map<string, () => void>();

  request(name: string, options: { ifAvailable?: boolean }, use: Use): Promise<unknown> {
    if (this.#held.has(name)) {
      if (options.ifAvailable) return use(null);
      throw new Error(`the journal's tests never wait for a held lock (${name})`);
    }
    let free!: () => void;
    const freed = new Promise<void>((resolve) => free = resolve);
    this.#held.set(name, free);
    const done = use({ name });
    // A killed page frees its lock without its callback ever finishing.
    return Promise.race([done, freed]).finally(() => this.#held.delete(name));
  }

  /** Whether a page holds `name` (`playhead:<page id>`). */
  holds(name: string): boolean {
    return this.#held.has(name);
  }

  /** The page holding `name` is killed: its lock is free at once. */
  kill(name: string): void {
    this.#held.get(name)?.();
    this.#held.delete(name);
  }
}

export const locks = new FakeLocks();
Object.defineProperty(navigator, "locks", { value: locks, configurable: true });
