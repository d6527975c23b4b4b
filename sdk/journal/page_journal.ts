// What this page leaves for the pages after it, for its project only (its key and endpoint): its
// entry in the journal (sdk/journal/journal.ts) — its id, its lock (held while the page is open, so a free
// lock means the page is gone), the unacknowledged events and the trigger buffer, written when
// they changed — and what its unload could not send, parked for the tab's next page. The store
// and the recovery are a module loaded on demand (sdk/lazy/journal.ts), asked for at the start
// where the page can journal: what is written before it comes waits for it.
import type { Flusher } from "@/sdk/send/flusher.ts";
import { JOURNAL_EVERY_MS, JOURNALING, type JournalProject, withLock } from "./journal.ts";
import { clearPending, type PendingBatch, savePending, takePending } from "@/sdk/send/keepalive.ts";
import { type LazyModules, loadLazy } from "@/sdk/lazy_modules.ts";
import { type KeyValueStorage, uuidV4 } from "@/sdk/session_id.ts";
import type { Transport } from "@/sdk/send/transport.ts";
import type { HeldSegment, PageStart } from "@/sdk/control/trigger_buffer.ts";
import type { SessionMetadata } from "@/sdk/types.ts";

/** How long a page's recording decision waits for the journal's answer (it may never come). */
export const KEPT_WAIT_MS = 2_000;

export interface JournaledSession {
  sessionId: string;
  metadata: () => SessionMetadata;
  /** What the trigger buffer carries to the session's next page from `page`, and its revision. */
  kept: (page: PageStart) => HeldSegment[];
  keptRevision: number;
}

type Store = LazyModules["journal"];

export class PageJournal {
  readonly page = uuidV4();
  readonly project: JournalProject;
  #written = ""; // the revisions last written
  #saved = false; // an entry was written since the last delete
  #unlock: (() => void) | null = null;
  #store: Promise<Store | null>; // the store and the recovery (null: not here, or no journaling)

  constructor(
    { apiKey, endpoint }: JournalProject,
    readonly storage: KeyValueStorage | null,
    load: () => Promise<Store | null> = () => loadLazy(endpoint, "journal"),
  ) {
    this.project = { apiKey, endpoint };
    this.#store = JOURNALING ? load() : Promise.resolve(null);
  }

  /**
   * Recovers what gone pages of this key left (sdk/journal/recovery.ts); resolves with the trigger buffer
   * the session's earlier pages kept, or with none after KEPT_WAIT_MS.
   */
  recover(transport: Transport, sessionId: string): Promise<HeldSegment[]> {
    const own = { ...this.project, page: this.page, sessionId };
    return new Promise((carry) => {
      setTimeout(() => carry([]), KEPT_WAIT_MS);
      void this.#store.then((m) => m ? m.recover(transport, own) : []).then(carry, () => carry([]));
    });
  }

  /** Takes the page's lock, and calls `write` every JOURNAL_EVERY_MS. */
  open(write: () => void): void {
    setInterval(write, JOURNAL_EVERY_MS);
    this.lock();
  }

  lock(): void {
    void withLock(this.page, true, () => new Promise<void>((done) => this.#unlock = done));
  }

  /** Frees the lock: a held lock keeps a page out of the bfcache. */
  unlock(): void {
    this.#unlock?.();
  }

  /**
   * Writes the unacknowledged events and the trigger buffer when they changed, or `now`. Never
   * the events while holding: held events may not leave the page before `release()` (consent).
   */
  write(
    source: Pick<Flusher, "held" | "revision" | "unacknowledged">,
    now: boolean,
    session: JournaledSession,
  ): void {
    const revisions = `${source.revision} ${session.keptRevision}`;
    if (!JOURNALING || (!now && revisions === this.#written)) return;
    this.#written = revisions;
    const batches = source.held ? [] : source.unacknowledged();
    const metadata = session.metadata();
    const buffer = session.kept(metadata);
    const empty = batches.length === 0 && buffer.length === 0;
    if (empty && !this.#saved) return; // nothing to write, and no entry to delete
    this.#saved = !empty;
    const entry = {
      page: this.page,
      sessionId: session.sessionId,
      ...this.project,
      savedAt: Date.now(),
      metadata,
    };
    void this.#store.then((m) => m?.save(entry, batches, buffer));
  }

  /** Parks what the unload could not send, for the tab's next page of this session and key. */
  park(sessionId: string, batches: PendingBatch[]): void {
    savePending(this.storage, this.#parkedBy(sessionId), batches);
  }

  /** Hands `flusher` what the tab's previous page of this session and key parked: sent first, now. */
  unpark(flusher: Flusher, sessionId: string): void {
    const batches = takePending(this.storage, this.#parkedBy(sessionId));
    if (batches.length === 0) return;
    flusher.restore(batches);
    void flusher.flush();
  }

  /** Drops the entry and what the session parked (it was cancelled): the next write starts afresh. */
  forget(sessionId: string): void {
    clearPending(this.storage, this.#parkedBy(sessionId));
    void this.#store.then((m) => m?.deleteEntry(this.page));
    this.#written = "";
    this.#saved = false;
  }

  /** Parked batches are the session's, sent only with this key to this endpoint. */
  #parkedBy(sessionId: string): string {
    return `${sessionId} ${this.project.apiKey} ${this.project.endpoint}`;
  }
}
