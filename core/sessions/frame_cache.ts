// A bounded least-recently-used map: at most `maxEntries` values and `maxWeight` of their weight
// (characters, bytes), the oldest read dropped first. The server's replay frames
// (core/sessions/server_frames.ts) are weighed by their HTML (or a large one's gzipped bytes); a
// public link's cut (core/shares/link_cuts.ts) by its batches' data.

export class WeightedCache<V> {
  readonly #entries = new Map<string, V>();
  #weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key); // re-inserted: the newest read is last
    this.#entries.set(key, value);
    return value;
  }

  set(key: string, value: V) {
    if (this.weigh(value) > this.maxWeight) return;
    this.#drop(key);
    this.#entries.set(key, value);
    this.#weight += this.weigh(value);
    for (const [oldest] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#weight <= this.maxWeight) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string) {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#weight -= this.weigh(value);
    this.#entries.delete(key);
  }
}

/** Frames, weighed by their characters of HTML and bytes of a gzipped document. */
export class FrameCache<V extends { srcdoc: string; document?: Uint8Array | null }>
  extends WeightedCache<V> {
  constructor(maxEntries: number, maxChars: number) {
    super(maxEntries, maxChars, (value) => value.srcdoc.length + (value.document?.byteLength ?? 0));
  }
}
