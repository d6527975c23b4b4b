// A bounded wait for something a test can see happen (a row, a log line), polled: a regression
// fails with what was awaited instead of hanging the suite.

/** Polls `fn` until it returns a truthy value, which it returns; throws after `timeoutMs`. */
export async function waitUntil<T>(
  fn: () => Promise<T> | T,
  what: string,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
