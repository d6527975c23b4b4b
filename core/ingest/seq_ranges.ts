// Sets of a page's event sequence numbers as sorted, disjoint [start, end) ranges: what a batch
// holds, what is stored (PostgreSQL's int8multirange, migration 0031), and what is left of one
// after the other.

/** Sorted, disjoint, non-adjacent [start, end) pairs with start < end. */
export type SeqRanges = [number, number][];

/** The numbers in `a` that are not in `b`. */
export function subtract(a: SeqRanges, b: SeqRanges): SeqRanges {
  const out: SeqRanges = [];
  let j = 0;
  for (let [start, end] of a) {
    while (j < b.length && b[j][1] <= start) j++;
    for (let k = j; k < b.length && b[k][0] < end; k++) {
      if (b[k][0] > start) out.push([start, b[k][0]]);
      start = Math.max(start, b[k][1]);
    }
    if (start < end) out.push([start, end]);
  }
  return out;
}

/** Whether `n` is in `ranges`. */
export function holds(ranges: SeqRanges, n: number): boolean {
  return ranges.some(([start, end]) => start <= n && n < end);
}

/** The numbers of `ranges`, in order. */
export function* numbers(ranges: SeqRanges): Generator<number> {
  for (const [start, end] of ranges) for (let n = start; n < end; n++) yield n;
}

/** Ranges of ascending numbers. */
export function rangesOf(ascending: Iterable<number>): SeqRanges {
  const out: SeqRanges = [];
  for (const n of ascending) {
    const last = out.at(-1);
    if (last && last[1] === n) last[1] = n + 1;
    else out.push([n, n + 1]);
  }
  return out;
}

/** PostgreSQL's text of an int8multirange: `{[0,10),[20,30)}`. */
export function toMultirange(ranges: SeqRanges): string {
  return `{${ranges.map(([start, end]) => `[${start},${end})`).join(",")}}`;
}

/** Reads PostgreSQL's canonical text of an int8multirange (lower bound in, upper bound out). */
export function fromMultirange(text: string): SeqRanges {
  return [...text.matchAll(/\[(\d+),(\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}
