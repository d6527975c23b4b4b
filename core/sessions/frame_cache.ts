// A bounded least-recently-used map of the server's replay frames (core/sessions/moment_frame.ts):
// at most `maxEntries` frames and `maxChars` of their HTML (or a large one's gzipped bytes), the
// oldest read dropped first.

export class FrameCache<V extends { srcdoc: string; document?: Uint8Array | null }> {
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
    if (weight(value) > this.maxChars) return;
    this.#drop(key);
    this.#entries.set(key, value);
    this.#chars += weight(value);
    for (const [oldest] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#chars <= this.maxChars) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string) {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#chars -= weight(value);
    this.#entries.delete(key);
  }
}

const weight = (value: { srcdoc: string; document?: Uint8Array | null }) =>
  value.srcdoc.length + (value.document?.byteLength ?? 0);
