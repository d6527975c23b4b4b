import "@/tests/helpers/sdk_journal_world.ts";
import assert from "node:assert/strict";
import type { JournalEntry } from "./journal.ts";
import { allEntries, deleteEntry, saveEntry, savePage } from "./journal_store.ts";
import type { KeptSegment } from "./kept_segments.ts";

const MIB4 = 4_194_304; // 4 MiB, written out: the bound is the documented figure, not the constant

function entry(page: string, batches: string[], buffer?: KeptSegment[]): JournalEntry {
  return {
    page,
    sessionId: "s1",
    apiKey: "sp_0123456789abcdef0123456789abcdef",
    endpoint: "https://svc.test",
    savedAt: 1,
    metadata: {} as JournalEntry["metadata"],
    batches,
    ranges: batches.map((_, i) => ({ pageId: page, seq: i })),
    buffer,
  };
}

async function stored(page: string): Promise<JournalEntry | undefined> {
  return (await allEntries()).find((e) => e.page === page);
}

Deno.test("journal store: a page keeps 4 MiB of batches, at and below it all, above it the oldest go first", async () => {
  for (const [total, kept] of [[MIB4 - 1, 3], [MIB4, 3], [MIB4 + 1, 2]] as const) {
    const page = `cap-${total}`;
    const oldest = "a".repeat(total - 2 * 1_048_576);
    await saveEntry(entry(page, [oldest, "b".repeat(1_048_576), "c".repeat(1_048_576)]));
    const e = (await stored(page))!;
    assert.equal(e.batches.length, kept, `${total} characters`);
    assert.equal(e.batches.at(-1)![0], "c", "the newest batch stays");
    assert.deepEqual(e.ranges!.map((r) => r!.seq), [0, 1, 2].slice(3 - kept), "ranges follow");
    await deleteEntry(page);
  }
});

Deno.test("journal store: the trigger buffer takes what the batches leave of 4 MiB, its oldest segments first out", async () => {
  const segment = (start: number, chars: number): KeptSegment => ({
    start,
    page: { url: "https://shop.test/", referrer: "" },
    runs: [{ pageId: "p", seq: start, events: ["x".repeat(chars)] }],
  });
  for (const [left, kept] of [[1_000_000, 2], [999_999, 1]] as const) {
    const page = `buffer-${left}`;
    const batches = ["b".repeat(MIB4 - left)];
    await saveEntry(entry(page, batches, [segment(1, 500_000), segment(2, 500_000)]));
    const e = (await stored(page))!;
    assert.deepEqual(e.buffer!.map((s) => s.start), [1, 2].slice(2 - kept), `${left} left`);
    await deleteEntry(page);
  }
});

Deno.test("journal store: an entry with nothing left to keep is deleted, and entries read oldest first", async () => {
  await saveEntry({ ...entry("late", ["[]"]), savedAt: 20 });
  await saveEntry({ ...entry("early", ["[]"]), savedAt: 10 });
  assert.deepEqual((await allEntries()).map((e) => e.page), ["early", "late"]);
  await saveEntry(entry("late", []));
  assert.deepEqual((await allEntries()).map((e) => e.page), ["early"]);
  await deleteEntry("early");
  assert.deepEqual(await allEntries(), []);
});

Deno.test("journal store: a page's writes store each event once, read back as its batches in order", async () => {
  const event = (seq: number) => {
    const json = `{"n":${seq}}`;
    return { json, bytes: json.length, page: "p1", seq };
  };
  const { batches: _, ranges: __, ...page } = entry("writer", []);
  await savePage(page, [[0, 1, 2].map(event)]);
  await savePage(page, [[0, 1, 2, 3, 4].map(event)]); // two more since the first write
  const raw = await new Promise<{ json: string }[]>((resolve) => {
    const open = indexedDB.open("playhead");
    open.onsuccess = () => {
      const all = open.result.transaction("chunks").objectStore("chunks").getAll();
      all.onsuccess = () => resolve(all.result);
    };
  });
  assert.deepEqual(raw.map((c) => c.json), ['[{"n":0},{"n":1},{"n":2}]', '[{"n":3},{"n":4}]']);
  const read = (await stored("writer"))!;
  assert.deepEqual(read.batches, ['[{"n":0},{"n":1},{"n":2},{"n":3},{"n":4}]'], "merged: one run");
  assert.deepEqual(read.ranges, [{ pageId: "p1", seq: 0 }]);
  await savePage(page, [[4].map(event)]); // 0-3 acknowledged: the first chunk goes
  assert.deepEqual((await stored("writer"))!.batches, ['[{"n":3},{"n":4}]']);
  await deleteEntry("writer");
  assert.equal(await stored("writer"), undefined);
});
