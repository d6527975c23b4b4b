// What pages of this site that are gone (a closed tab, a killed browser) left in the journal
// (sdk/journal.ts), sent by the next page: each page's batches in order, each with its range in
// its page's sequence, so the service stores only the events it has not (its keepalive bodies may
// have arrived, cut differently), each with that page's own metadata.
import {
  allEntries,
  deleteEntry,
  JOURNAL_MAX_PAGES,
  type JournalEntry,
  saveEntry,
  withLock,
} from "./journal.ts";
import { bodyHead } from "./encoded_event.ts";
import type { Transport } from "./transport.ts";

/** Entries older than the service's retention are dropped unsent. */
const MAX_AGE_MS = 7 * 86_400_000;

/**
 * Sends every orphaned page's entry but `own`'s. An entry of this tab's own session is dropped
 * instead: its page parked what it had not sent in sessionStorage, which this page restores.
 */
export async function recoverOrphans(
  transport: Transport,
  own: { page: string; sessionId: string },
): Promise<void> {
  const entries = (await allEntries()).filter((e) => e.page !== own.page);
  // Past JOURNAL_MAX_PAGES (a site the service never answers), the oldest go unsent.
  const surplus = entries.length - JOURNAL_MAX_PAGES;
  for (const [i, entry] of entries.entries()) {
    await withLock(entry.page, false, async (gone) => {
      if (!gone) return; // its page is still open
      const stale = i < surplus || entry.savedAt < Date.now() - MAX_AGE_MS;
      if (stale || entry.sessionId === own.sessionId) {
        await deleteEntry(entry.page);
      } else {
        await sendEntry(transport, entry);
      }
    });
  }
}

async function sendEntry(transport: Transport, entry: JournalEntry): Promise<void> {
  const tail = `,"metadata":${JSON.stringify(entry.metadata)}}`;
  const signal = new AbortController().signal;
  // Ranges that do not match the batches (an older SDK re-saved the entry) are not sent.
  const ranges = entry.ranges?.length === entry.batches.length ? entry.ranges : null;
  let sent = 0;
  while (sent < entry.batches.length) {
    const head = bodyHead(entry.sessionId, ranges?.[sent] ?? null);
    const { outcome } = await transport.send(head + entry.batches[sent] + tail, signal);
    if (outcome !== "delivered" && outcome !== "rejected") break; // the service is unreachable
    sent++;
  }
  if (sent === entry.batches.length) await deleteEntry(entry.page);
  else {
    await saveEntry({ ...entry, batches: entry.batches.slice(sent), ranges: ranges?.slice(sent) });
  }
}
