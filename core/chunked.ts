// Deletes in bounded chunks, so a sweep never holds locks on many rows at once and ingest is never
// blocked for long: repeats `step` until it deletes fewer rows than asked, and sums what it
// deleted.

export async function chunked(
  size: number,
  step: (limit: number) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (let deleted = size; deleted === size;) {
    deleted = await step(size);
    total += deleted;
  }
  return total;
}

/** One chunk of a sweep in key order: how many rows it took and the key it ended at. */
export interface KeyedChunk<K> {
  count: number;
  last: K | null;
}

/**
 * The same in key order: each step starts from the key the one before ended at (`first` for the
 * first), so none walks again over the rows the earlier ones took, whose index entries stay (dead)
 * until a vacuum.
 */
export async function chunkedByKey<K>(
  size: number,
  first: K,
  step: (from: K, limit: number) => Promise<KeyedChunk<K>>,
): Promise<number> {
  let total = 0;
  for (let from = first, count = size; count === size;) {
    const chunk = await step(from, size);
    count = chunk.count;
    total += count;
    // a full chunk took rows, so it ended at a key
    if (chunk.last !== null) from = chunk.last;
  }
  return total;
}
