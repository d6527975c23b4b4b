// What pages of this site that are gone (a closed tab, a killed browser) left in the journal
// (sdk/journal/journal.ts), sent by the next page running the same key to the same endpoint: each page's
// batches in order, each with its range in its page's sequence, so the service stores only the
// events it has not (its keepalive bodies may have arrived, cut differently), each with that
// page's own metadata. Another key's entries stay for a page of that key (within the journal's
// bounds). This session's earlier pages' trigger buffer is handed to this page first. Loaded on
// demand with the journal's store (sdk/lazy/journal.ts).
import { JOURNAL_MAX_PAGES, type JournalEntry, type JournalProject, withLock } from "./journal.ts";
import { allEntries, deleteEntry, isOf, saveEntry } from "./journal_store.ts";
import { bodyParts } from "@/sdk/send/encoded_event.ts";
import type { KeptSegment } from "./kept_segments.ts";
import type { Transport } from "@/sdk/send/transport.ts";

/** Entries older than the service's retention are dropped unsent. */
const MAX_AGE_MS = 7 * 86_400_000;

export interface OwnPage extends JournalProject {
  page: string;
  sessionId: string;
}

/**
 * Hands `carry` the buffers of this session's other pages, then sends every orphaned page's
 * entry of this key and endpoint. An entry of this tab's own session is dropped instead of sent:
 * its page parked what it had not sent in sessionStorage, which this page restores. Entries past
 * the journal's bounds go unsent whatever their key, as do those of SDKs that did not name theirs.
 */
export async function recoverOrphans(
  transport: Transport,
  own: OwnPage,
  carry: (kept: KeptSegment[]) => void,
): Promise<void> {
  const entries = (await allEntries()).filter((e) => e.page !== own.page);
  const mine = entries.filter((e) => isOf(e, own) && e.sessionId === own.sessionId);
  carry(mine.flatMap((e) => e.buffer ?? []));
  // Past JOURNAL_MAX_PAGES (a site the service never answers), the oldest go unsent.
  const surplus = entries.length - JOURNAL_MAX_PAGES;
  for (const [i, entry] of entries.entries()) {
    const expired = i < surplus || entry.savedAt < Date.now() - MAX_AGE_MS ||
      entry.apiKey === undefined;
    if (!expired && !isOf(entry, own)) continue; // it waits for a page of its own key
    await withLock(entry.page, false, async (gone) => {
      if (!gone) return; // its page is still open
      if (expired || entry.sessionId === own.sessionId) {
        await deleteEntry(entry.page);
      } else {
        await sendEntry(transport, entry);
      }
    });
  }
}

async function sendEntry(transport: Transport, entry: JournalEntry): Promise<void> {
  const signal = new AbortController().signal;
  // Ranges that do not match the batches (an older SDK re-saved the entry) are not sent.
  const ranges = entry.ranges?.length === entry.batches.length ? entry.ranges : null;
  let sent = 0;
  while (sent < entry.batches.length) {
    const range = ranges?.[sent] ?? null;
    const body = bodyParts(entry.sessionId, range, entry.batches[sent], entry.metadata);
    const { outcome } = await transport.send(body, signal);
    if (outcome !== "delivered" && outcome !== "rejected") break; // the service is unreachable
    sent++;
  }
  if (sent === entry.batches.length) await deleteEntry(entry.page);
  else {
    await saveEntry({ ...entry, batches: entry.batches.slice(sent), ranges: ranges?.slice(sent) });
  }
}
