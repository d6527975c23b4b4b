// The journal's store and recovery, built as their own module (sdk/lazy_modules.ts): what a page
// writes to IndexedDB, and what it sends and carries of the pages gone before it, load after the
// start (sdk/journal/page_journal.ts asks for them), so the SDK's entry stays within its budget.
import type { JournalEntry } from "@/sdk/journal/journal.ts";
import { deleteEntry, savePage } from "@/sdk/journal/journal_store.ts";
import { carried, keptOf } from "@/sdk/journal/kept_segments.ts";
import { type OwnPage, recoverOrphans } from "@/sdk/journal/recovery.ts";
import type { EncodedEvent } from "@/sdk/send/encoded_event.ts";
import type { Transport } from "@/sdk/send/transport.ts";
import type { HeldSegment } from "@/sdk/control/trigger_buffer.ts";

export { deleteEntry };

/**
 * Writes a page's entry (sdk/journal/journal_store.ts): its unacknowledged `events` as the flusher
 * cut them, its trigger buffer as the journal keeps it.
 */
export function save(
  entry: Omit<JournalEntry, "batches" | "ranges" | "buffer">,
  events: EncodedEvent[][],
  buffer: HeldSegment[],
): Promise<unknown> {
  return savePage({ ...entry, buffer: buffer.map(keptOf) }, events);
}

/**
 * Recovers the journal (sdk/journal/recovery.ts); resolves with the trigger buffer this session's earlier
 * pages kept as soon as it is read, while the orphans are still being sent.
 */
export function recover(transport: Transport, own: OwnPage): Promise<HeldSegment[]> {
  return new Promise((carry) => {
    void recoverOrphans(transport, own, (kept) => carry(carried(kept)))
      .catch(() => {}).finally(() => carry([]));
  });
}
