// Which public keys some project has, remembered briefly, so ingest can refuse an unknown key before
// it reads (and gunzips, up to 32 MiB) the body. Only a refusal relies on the memory: a key
// remembered as known still goes through the write statement, which finds its project itself, so
// a deleted or regenerated key stops working at once; a key remembered as unknown is refused for
// at most UNKNOWN_TTL_MS after some project gets it (keys are random, so in practice never).
export const KNOWN_TTL_MS = 60_000;
export const UNKNOWN_TTL_MS = 10_000;
/** Bounded, so a flood of random keys cannot grow it without limit. */
const MAX_ENTRIES = 10_000;

export type KeyLookup = (key: string) => Promise<boolean>;

export class KnownKeys {
  readonly #entries = new Map<string, { known: boolean; until: number }>();
  readonly #pending = new Map<string, Promise<boolean>>();

  constructor(private readonly lookup: KeyLookup, private readonly now = () => Date.now()) {}

  /** false only when the database said no project has the key, in the last few seconds. */
  async mayExist(key: string): Promise<boolean> {
    const entry = this.#entries.get(key);
    if (entry && entry.until > this.now()) return entry.known;
    // One lookup per key at a time, however many requests carry it.
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.lookup(key).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    const known = await pending;
    this.#remember(key, known);
    return known;
  }

  #remember(key: string, known: boolean): void {
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(key, { known, until: this.now() + (known ? KNOWN_TTL_MS : UNKNOWN_TTL_MS) });
  }
}
