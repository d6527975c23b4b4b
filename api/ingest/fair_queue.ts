// The decode pool's waiting bodies: one queue per public key, the keys served in turn. A key's
// flood waits behind itself; another key's body waits for at most one body of each key ahead of
// it, not for the whole flood (one key's 20 MiB of gzip held a normal batch 21.6 s in one queue).
export interface FairQueue<T> {
  push(key: string, item: T): void;
  /** The oldest item of the key whose turn it is; that key then goes behind the others. */
  shift(): T | undefined;
  readonly length: number;
  /** Items of `key` waiting. */
  waiting(key: string): number;
}

export function createFairQueue<T>(): FairQueue<T> {
  // A Map keeps its keys in the order they were set: the turn order. A key served, or coming
  // back after its queue emptied, is set again at the end.
  const queues = new Map<string, T[]>();
  let length = 0;
  return {
    push(key, item) {
      const queue = queues.get(key);
      if (queue) queue.push(item);
      else queues.set(key, [item]);
      length++;
    },
    shift() {
      for (const [key, queue] of queues) {
        queues.delete(key);
        const item = queue.shift()!;
        if (queue.length > 0) queues.set(key, queue);
        length--;
        return item;
      }
      return undefined;
    },
    get length() {
      return length;
    },
    waiting: (key) => queues.get(key)?.length ?? 0,
  };
}
