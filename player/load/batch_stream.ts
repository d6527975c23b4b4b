// Splits streamed JSON into the text of each item at one nesting depth as soon as its last byte
// arrives: the events endpoint's `{"batches":[{…},{…}],"nextCursor":…}` answer into batches (depth
// 3, so decoding starts before the download ends), or a batch's event array into events (depth 2).

/** Feeds text chunks; returns the items completed by each chunk, as JSON text. */
export class BatchSplitter {
  /** Depth of the items: 1 is the outermost value. The default is a batch of the events answer. */
  constructor(private readonly itemDepth = 3) {}

  #depth = 0;
  #inString = false;
  #escaped = false;
  #item: string[] = [];
  #itemStart = -1;

  push(chunk: string): string[] {
    const done: string[] = [];
    this.#itemStart = this.#depth >= this.itemDepth ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      if (this.#inString) {
        i = this.#skipString(chunk, i);
        continue;
      }
      const char = chunk[i];
      if (char === '"') this.#inString = true;
      else if (char === "{" || char === "[") {
        if (++this.#depth === this.itemDepth) this.#itemStart = i;
      } else if (char === "}" || char === "]") {
        if (this.#depth-- === this.itemDepth) {
          this.#item.push(chunk.slice(this.#itemStart, i + 1));
          done.push(this.#item.join(""));
          this.#item = [];
          this.#itemStart = -1;
        }
      }
    }
    if (this.#itemStart >= 0) this.#item.push(chunk.slice(this.#itemStart));
    return done;
  }

  /** Index of the last character consumed inside a string (its closing quote, or the chunk end). */
  #skipString(chunk: string, from: number): number {
    for (let i = from; i < chunk.length; i++) {
      if (this.#escaped) this.#escaped = false;
      else if (chunk[i] === "\\") this.#escaped = true;
      else if (chunk[i] === '"') {
        this.#inString = false;
        return i;
      } else {
        // Long runs (base64 data) have no quotes or backslashes: jump to the next of either.
        const quote = chunk.indexOf('"', i);
        const slash = chunk.indexOf("\\", i);
        const next = Math.min(quote < 0 ? chunk.length : quote, slash < 0 ? chunk.length : slash);
        i = next - 1;
      }
    }
    return chunk.length - 1;
  }
}
