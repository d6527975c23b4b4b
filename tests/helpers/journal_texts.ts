// The SDK journal as a test reads it in a page of the site (IndexedDB `playhead`): each page's
// entry with the chunks of its events (sdk/journal/journal_store.ts), as one JSON text per entry.
import type { Page } from "playwright-core";

export interface JournalText {
  sessionId: string;
  /** The entry and its chunks' events, as JSON. */
  text: string;
}

export function journalTexts(page: Page): Promise<JournalText[]> {
  return page.evaluate(() =>
    new Promise<JournalText[]>((resolve) => {
      const open = indexedDB.open("playhead");
      open.onsuccess = () => {
        const tx = open.result.transaction(["pages", "chunks"]);
        const entries = tx.objectStore("pages").getAll();
        const chunks = tx.objectStore("chunks").getAll();
        tx.oncomplete = () =>
          resolve(entries.result.map((e) => ({
            sessionId: e.sessionId,
            text: JSON.stringify({
              ...e,
              chunks: chunks.result.filter((c) => c.page === e.page).map((c) => c.json),
            }),
          })));
      };
      // The journal not created yet: nothing journaled.
      open.onupgradeneeded = () => open.transaction!.abort();
      open.onerror = () => resolve([]);
    })
  );
}
