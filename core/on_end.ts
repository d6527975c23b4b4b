// An async iterable read as it is, with a callback once it ends, fails or is given up: a streamed
// answer's body whose request holds a place (http/in_flight.ts) or a cut job
// (core/shares/cut_pool.ts) until then.

/**
 * `source` with `end` called once when it is done, throws, or is returned. Not a generator: one
 * returned before its first read (a client gone before the body started) must end too, and a
 * generator's `finally` would not run then.
 */
export function onEnd<T>(source: AsyncIterable<T>, end: () => void): AsyncIterable<T> {
  const iterator = source[Symbol.asyncIterator]();
  let ended = false;
  const once = () => {
    if (ended) return;
    ended = true;
    end();
  };
  return {
    [Symbol.asyncIterator]: () => ({
      async next() {
        try {
          const step = await iterator.next();
          if (step.done) once();
          return step;
        } catch (error) {
          once();
          throw error;
        }
      },
      async return() {
        once();
        await iterator.return?.();
        return { done: true, value: undefined };
      },
    }),
  };
}
