// This page's entry in the journal (sdk/journal.ts): its id, its lock (held while the page is
// open, so a free lock means the page is gone), and the unacknowledged events, written when they
// changed.
import { jsonArray, rangeOf } from "./encoded_event.ts";
import type { Flusher } from "./flusher.ts";
import { deleteEntry, JOURNALING, saveEntry, withLock } from "./journal.ts";
import { uuidV4 } from "./session_id.ts";
import type { SessionMetadata } from "./types.ts";

export class PageJournal {
  readonly page = uuidV4();
  #written = -1; // the flusher revision last written
  #unlock: (() => void) | null = null;

  lock(): void {
    void withLock(this.page, true, () => new Promise<void>((done) => this.#unlock = done));
  }

  /** Frees the lock: a held lock keeps a page out of the bfcache. */
  unlock(): void {
    this.#unlock?.();
  }

  /**
   * Writes the unacknowledged events when they changed, or `now`. Never while holding: held events
   * may not leave the page before `release()` (consent).
   */
  write(
    source: Pick<Flusher, "held" | "revision" | "unacknowledged">,
    now: boolean,
    session: { sessionId: string; metadata: () => SessionMetadata },
  ): void {
    if (!JOURNALING || source.held || (!now && source.revision === this.#written)) return;
    this.#written = source.revision;
    const batches = source.unacknowledged();
    void saveEntry({
      page: this.page,
      sessionId: session.sessionId,
      savedAt: Date.now(),
      metadata: session.metadata(),
      batches: batches.map(jsonArray),
      ranges: batches.map(rangeOf),
    });
  }

  /** Drops the entry (a cancelled session): the next write starts afresh. */
  forget(): void {
    void deleteEntry(this.page);
    this.#written = -1;
  }
}
