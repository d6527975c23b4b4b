// Deletes in bounded chunks so a sweep never holds locks on many rows at once (DECISIONS
// "Cleanup"): repeats `step` until it deletes fewer rows than asked, and sums what it deleted.

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
