// A page's parallel reads: Promise.all that settles every read before it answers. With plain
// Promise.all a read still running when another failed (a not_found, a bad cursor) would outlive
// its request and, on PostgreSQL, keep a connection held.
export async function settleAll<T extends readonly unknown[] | []>(
  reads: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(reads as readonly unknown[]);
  for (const read of settled) if (read.status === "rejected") throw read.reason;
  return settled.map((read) => (read as PromiseFulfilledResult<unknown>).value) as never;
}
