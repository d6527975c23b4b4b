// A session's share of the maps read from its stored batches, one batch at a time, up to a bound
// (docs/decisions.md "Heatmaps"): each batch's gzip bytes inflated and parsed, its events applied
// to the page model (recording/model/page_clicks.ts), and the rows made at the end (./rollup.ts).
// The same code runs in the derive worker (./derive_worker.ts) and, when no worker can, inline.
import { wholeBatchEvents } from "@/recording/model/batch_events.ts";
import { PageClicks } from "@/recording/model/page_clicks.ts";
import type { SessionShare } from "@/db/queries/heatmaps/write.ts";
import { heatmapRows } from "./rollup.ts";

/** How much of a session is read at most; past it, its first batches make its share. */
export interface DeriveBounds {
  /** Events applied. */
  events: number;
  /** Stored (gzip) bytes read. */
  bytes: number;
}

/**
 * A session of 200,000 events or 32 MiB of stored batches (hours of a busy page) is read no
 * further: its first batches already place its clicks, and a longer one would hold the worker
 * from every other session for seconds.
 */
export const DERIVE_BOUNDS: DeriveBounds = { events: 200_000, bytes: 32 * 1024 * 1024 };

/** After each batch: what was read so far, and whether the bound is reached (read no more). */
export interface BatchRead {
  events: number;
  bytes: number;
  full: boolean;
}

export interface ShareRead {
  share: SessionShare;
  clicks: number;
}

export class ShareReader {
  readonly #clicks = new PageClicks();
  #events = 0;
  #bytes = 0;

  constructor(readonly bounds: DeriveBounds = DERIVE_BOUNDS) {}

  /** Applies one stored batch (a whole one, even when it crosses the bound). */
  async push(bytes: Uint8Array): Promise<BatchRead> {
    this.#bytes += bytes.length;
    for await (const event of wholeBatchEvents([bytes])) {
      this.#clicks.push(event);
      this.#events++;
    }
    return {
      events: this.#events,
      bytes: this.#bytes,
      full: this.#events >= this.bounds.events || this.#bytes >= this.bounds.bytes,
    };
  }

  share(): ShareRead {
    return { share: heatmapRows(this.#clicks), clicks: this.#clicks.clicks.length };
  }
}
