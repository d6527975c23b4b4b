import { locks } from "@/tests/helpers/sdk_journal_world.ts";
import assert from "node:assert/strict";
import { jsonArray, rangeOf } from "@/sdk/send/encoded_event.ts";
import { Transport } from "@/sdk/send/transport.ts";
import { encodedEvents, numbers, scriptedDeps } from "@/tests/helpers/sdk_doubles.ts";
import { type JournalEntry, withLock } from "./journal.ts";
import { allEntries, deleteEntry, saveEntry } from "./journal_store.ts";
import { recoverOrphans } from "./recovery.ts";

const PROJECT = { apiKey: "sp_0123456789abcdef0123456789abcdef", endpoint: "https://svc.test" };
const OWN = { ...PROJECT, page: "this-page", sessionId: "this-session" };
const NOW = Date.now();

/** A gone page's entry: `count` batches of 2 events, numbered in its own sequence. */
function entry(page: string, savedAt: number, count = 1): JournalEntry {
  const batches = Array.from(
    { length: count },
    (_, i) => encodedEvents(2, 2 * i).map((e, j) => ({ ...e, page, seq: 2 * i + j })),
  );
  return {
    page,
    sessionId: `session-of-${page}`,
    ...PROJECT,
    savedAt,
    metadata: { url: `https://shop.test/${page}` } as JournalEntry["metadata"],
    batches: batches.map(jsonArray),
    ranges: batches.map(rangeOf),
  };
}

async function recover(script: number[] = []) {
  const { deps, sent } = scriptedDeps(script);
  await recoverOrphans(new Transport(PROJECT, deps), OWN, () => {});
  return sent;
}

async function clear() {
  for (const e of await allEntries()) await deleteEntry(e.page);
}

Deno.test("recovery: at 19 and 20 gone pages every one is sent; at 21 the oldest goes unsent", async () => {
  for (const [pages, sentPages] of [[19, 19], [20, 20], [21, 20]]) {
    for (let i = 0; i < pages; i++) await saveEntry(entry(`p${i}`, NOW - 60_000 + i));
    const sent = await recover();
    const expected = Array.from({ length: sentPages }, (_, i) => `p${pages - sentPages + i}`);
    assert.deepEqual(sent.map((r) => r.json.pageId), expected, `${pages} pages`);
    assert.deepEqual(await allEntries(), [], "every entry is gone, sent or dropped");
  }
});

Deno.test("recovery: pages are sent oldest first, each page's batches in order, with their ranges and metadata", async () => {
  await saveEntry(entry("later", NOW - 1_000, 3));
  await saveEntry(entry("earlier", NOW - 2_000, 2));
  const sent = await recover();
  assert.deepEqual(sent.map((r) => [r.json.pageId, r.json.seq]), [
    ["earlier", 0],
    ["earlier", 2],
    ["later", 0],
    ["later", 2],
    ["later", 4],
  ]);
  assert.deepEqual(numbers(sent), [0, 1, 2, 3, 0, 1, 2, 3, 4, 5]);
  assert.deepEqual(sent.map((r) => (r.json.metadata as { url: string }).url).slice(0, 2), [
    "https://shop.test/earlier",
    "https://shop.test/earlier",
  ]);
  assert.ok(sent.every((r) => r.json.sessionId === `session-of-${r.json.pageId}`));
});

Deno.test("recovery: an entry is deleted once every batch is answered; unreachable, the rest is kept for later", async () => {
  await saveEntry(entry("gone", NOW - 1_000, 3));
  // The first batch is stored, the second meets a service that cannot be reached (4 tries).
  const sent = await recover([204, 0, 0, 0, 0]);
  assert.deepEqual(sent.map((r) => r.json.seq), [0, 2, 2, 2, 2]);
  const kept = await allEntries();
  assert.deepEqual(kept.map((e) => e.ranges!.map((r) => r!.seq)), [[2, 4]], "the unsent rest");
  // A 4xx is an answer too: the service will never take it, so it is not kept.
  const again = await recover([400]);
  assert.deepEqual(again.map((r) => r.json.seq), [2, 4]);
  assert.deepEqual(await allEntries(), []);
});

Deno.test("recovery: a page still open, another key's page and this page's own are never sent", async () => {
  await saveEntry(entry("open", NOW - 3_000));
  await saveEntry({ ...entry("other-key", NOW - 2_000), apiKey: "sp_" + "f".repeat(32) });
  await saveEntry({ ...entry("same-session", NOW - 1_000), sessionId: OWN.sessionId });
  let release!: () => void;
  void withLock("open", true, () => new Promise<void>((done) => release = done));
  assert.ok(locks.holds("playhead:open"));
  assert.deepEqual(await recover(), []);
  assert.deepEqual((await allEntries()).map((e) => e.page), ["open", "other-key"]);
  release();
  await clear();
});
