// A public link's events as its views are sent them (docs/decisions.md "Shares"): cut once in the
// cut worker (cut_pool.ts) and kept in a bounded cache by the link, its window and the session's
// stored event count (a later batch makes another cut), so a second view decodes nothing; views
// that arrive while a cut is being made read that one as it comes. A window whose stored batches
// weigh more than CACHED_CUT_STORED_BYTES is cut for each view, at its reader's pace. One per app
// (`AppDeps.linkCuts`), beside the cut worker it uses.
import type { EventBatchOut } from "@/core/sessions/schema.ts";
import type { StoredBatches } from "@/core/sessions/detail.ts";
import { WeightedCache } from "@/core/sessions/frame_cache.ts";
import { cutInputs, type CutPool } from "./cut_pool.ts";
import type { EventWindow } from "./window_events.ts";

/** A window of stored batches larger than this is not kept (its cut would take a quarter). */
export const CACHED_CUT_STORED_BYTES = 16 * 1024 * 1024;

export interface LinkCut {
  /** Names the cut: the link, its window and the session's stored event count. */
  key: string;
  window: EventWindow;
  /** The window's stored batches, read only when the cut is not cached or being made. */
  stored: () => Promise<StoredBatches>;
}

export class LinkCuts {
  /** 256 cuts of up to 64 MiB of base64 in all. */
  readonly #cache = new WeightedCache<EventBatchOut[]>(256, 64 * 1024 * 1024, weight);
  /** Cuts being made, which views of the same link and window read as they come. */
  readonly #cutting = new Map<string, Promise<Recording | null>>();

  constructor(private readonly pool: CutPool) {}

  /** The link's cut batches: cached, being made, or made now. */
  async cut(cut: LinkCut): Promise<AsyncIterable<EventBatchOut>> {
    const { pool } = this;
    const cached = this.#cache.get(cut.key);
    if (cached) return fromArray(cached);
    const making = this.#cutting.get(cut.key);
    if (making) {
      const shared = await making;
      // None to share (a window too large to keep, or its first read failed): this view cuts its
      // own.
      return shared ? shared.read() : own(pool, cut, await cut.stored());
    }
    const made = Promise.withResolvers<Recording | null>();
    this.#cutting.set(cut.key, made.promise);
    let recording: Recording | null = null;
    try {
      const stored = await cut.stored();
      if (stored.bytes > CACHED_CUT_STORED_BYTES) return own(pool, cut, stored);
      recording = new Recording(own(pool, cut, stored));
      const key = cut.key;
      void recording.finished.then((batches) => {
        this.#cutting.delete(key);
        if (batches) this.#cache.set(key, batches);
      });
      return recording.read();
    } finally {
      made.resolve(recording);
      if (!recording) this.#cutting.delete(cut.key);
    }
  }
}

const own = (pool: CutPool, { window }: LinkCut, stored: StoredBatches) =>
  pool.batches({ kind: "link", window }, cutInputs(stored));

/**
 * A cut's batches as the worker makes them, kept for every reader: it runs to its end whoever
 * reads (its size is bounded by the window's stored bytes), so one slow view holds up no other.
 */
class Recording {
  readonly batches: EventBatchOut[] = [];
  #failure: unknown = null;
  #done = false;
  #arrived = Promise.withResolvers<void>();
  /** The whole cut once made; null when it failed. */
  readonly finished: Promise<EventBatchOut[] | null>;

  constructor(source: AsyncIterable<EventBatchOut>) {
    this.finished = this.#drain(source);
  }

  async #drain(source: AsyncIterable<EventBatchOut>): Promise<EventBatchOut[] | null> {
    try {
      for await (const batch of source) this.#push(batch);
      return this.batches;
    } catch (error) {
      this.#failure = error;
      return null;
    } finally {
      this.#done = true;
      this.#arrived.resolve();
    }
  }

  #push(batch: EventBatchOut) {
    this.batches.push(batch);
    const arrived = this.#arrived;
    this.#arrived = Promise.withResolvers();
    arrived.resolve();
  }

  async *read(): AsyncGenerator<EventBatchOut> {
    for (let i = 0;; i++) {
      while (i >= this.batches.length && !this.#done) await this.#arrived.promise;
      if (i < this.batches.length) yield this.batches[i];
      else if (this.#failure) throw this.#failure;
      else return;
    }
  }
}

async function* fromArray(batches: EventBatchOut[]): AsyncGenerator<EventBatchOut> {
  yield* batches;
}

function weight(batches: EventBatchOut[]): number {
  return batches.reduce((sum, batch) => sum + batch.data.length + 100, 0);
}
