// Splits the events endpoint's `{"batches":[{…},{…}],"nextCursor":…}` answer into the text of each
// batch object as soon as its last byte arrives, so decoding starts before the download ends.

/** Feeds text chunks; returns the batch objects completed by each chunk, as JSON text. */
export class BatchSplitter {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #item: string[] = [];
  #itemStart = -1;

  push(chunk: string): string[] {
    const done: string[] = [];
    this.#itemStart = this.#depth >= 3 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      if (this.#inString) {
        i = this.#skipString(chunk, i);
        continue;
      }
      const char = chunk[i];
      if (char === '"') this.#inString = true;
      else if (char === "{" || char === "[") {
        // Depth 1 is the answer, 2 the batches array, 3 a batch.
        if (++this.#depth === 3) this.#itemStart = i;
      } else if (char === "}" || char === "]") {
        if (this.#depth-- === 3) {
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
