// A bounded least-recently-used map of the server's replay frames (core/sessions/moment_frame.ts):
// at most `maxEntries` frames and `maxChars` of their HTML, the oldest read dropped first.

export class FrameCache<V extends { srcdoc: string }> {
  readonly #entries = new Map<string, V>();
  #chars = 0;

  constructor(private readonly maxEntries: number, private readonly maxChars: number) {}

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
    if (value.srcdoc.length > this.maxChars) return;
    this.#drop(key);
    this.#entries.set(key, value);
    this.#chars += value.srcdoc.length;
    for (const [oldest] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#chars <= this.maxChars) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string) {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#chars -= value.srcdoc.length;
    this.#entries.delete(key);
  }
}
