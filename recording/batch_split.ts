// Splits streamed JSON into the text of each item at one nesting depth as soon as its last byte
// arrives: the events endpoint's `{"batches":[{…},{…}],"nextCursor":…}` answer into batches (depth
// 3, so decoding starts before the download ends), or a batch's event array into events (depth 2).

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Feeds text chunks; returns the items completed by each chunk, as JSON text. */
export class BatchSplitter {
  /** Depth of the items: 1 is the outermost value. The default is a batch of the events answer. */
  constructor(private readonly itemDepth = 3) {}

  #depth = 0;
  #inString = false;
  #escaped = false;
  #item: string[] = [];

  push(chunk: string): string[] {
    const done: string[] = [];
    const end = chunk.length;
    let itemStart = this.#depth >= this.itemDepth ? 0 : -1;
    // The next quote and backslash at or after where each was last looked for (`end`: none). A
    // string is skipped by searching for both, and each is searched for again only once passed,
    // so a chunk is scanned for them once in all, however many strings or escapes it holds.
    let quote = -1;
    let slash = -1;
    for (let i = 0; i < end;) {
      if (this.#inString) {
        if (this.#escaped) {
          this.#escaped = false;
          i++;
          continue;
        }
        if (quote < i) quote = found(chunk.indexOf('"', i), end);
        if (slash < i) slash = found(chunk.indexOf("\\", i), end);
        if (slash < quote) {
          // An escape: the character after the backslash (perhaps in the next chunk) is skipped.
          this.#escaped = slash + 1 === end;
          i = slash + 2;
        } else {
          if (quote < end) this.#inString = false;
          i = quote + 1;
        }
        continue;
      }
      const char = chunk.charCodeAt(i);
      if (char === QUOTE) this.#inString = true;
      else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
        if (++this.#depth === this.itemDepth) itemStart = i;
      } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
        if (this.#depth-- === this.itemDepth) {
          this.#item.push(chunk.slice(itemStart, i + 1));
          done.push(this.#item.join(""));
          this.#item = [];
          itemStart = -1;
        }
      }
      i++;
    }
    if (itemStart >= 0) this.#item.push(chunk.slice(itemStart));
    return done;
  }
}

/** An `indexOf` result, with "not found" as `end`. */
const found = (at: number, end: number) => at < 0 ? end : at;
