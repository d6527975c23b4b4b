// Each event is numbered once, as it comes in, and every copy of it says the same: a regular
// body, a keepalive body halved to the budget, a journal batch, a batch parked for the next page.
import assert from "node:assert/strict";
import { gzipSync } from "fflate";
import { cutBatches } from "./buffer.ts";
import { type EncodedEvent, encodeEvent, rangeOf } from "./encoded_event.ts";
import { Flusher } from "./flusher.ts";
import { type PendingBatch, savePending, takePending } from "./keepalive.ts";
import { Transport } from "./transport.ts";
import {
  encodedEvents,
  events,
  FakeStorage,
  scriptedDeps,
  type SentRequest,
} from "@/tests/helpers/sdk_doubles.ts";

const CONFIG = { endpoint: "http://svc.test", apiKey: "sp_0123456789abcdef0123456789abcdef" };

function setup(script: number[] = []) {
  const { deps, sent } = scriptedDeps(script);
  const parked: PendingBatch[][] = [];
  const flusher = new Flusher({
    sessionId: "s1",
    batchSize: 2000,
    hold: false,
    metadata: () => ({} as never),
    gzipSync: () => gzipSync,
    park: (batches) => parked.push(batches),
  }, new Transport(CONFIG, deps));
  return { flusher, sent, parked };
}

/** Each event's `n` → the page and number a body gave it (its first event's, plus its place). */
function numbered(sent: SentRequest[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const { json } of sent) {
    (json.events as { data: { n: number } }[]).forEach((e, i) => {
      assert.ok(!out.has(e.data.n), `event ${e.data.n} sent once`);
      out.set(e.data.n, `${json.pageId}:${(json.seq as number) + i}`);
    });
  }
  return out;
}

/** The same for batches as the journal and sessionStorage keep them. */
function numberedBatches(batches: EncodedEvent[][]): Map<number, string> {
  const out = new Map<number, string>();
  for (const batch of batches) {
    const range = rangeOf(batch)!;
    batch.forEach((e, i) => {
      out.set(JSON.parse(e.json).data.n, `${range.pageId}:${range.seq + i}`);
    });
  }
  return out;
}

/** Events that gzip little: 900 of them are more than one unload's keepalive budget. */
const noisy = (count: number) =>
  events(count).map((e) => ({ ...e, noise: [1, 2, 3, 4].map(() => crypto.randomUUID()) }));

Deno.test("flusher: every body names this page and its first event's number in the page", async () => {
  const { flusher, sent } = setup();
  for (const e of events(600)) flusher.add(e);
  await flusher.flush();
  for (const e of events(3, 600)) flusher.add(e);
  await flusher.flush();
  assert.deepEqual(sent.map((r) => [r.json.pageId, r.json.seq]), [
    [flusher.page, 0],
    [flusher.page, 500],
    [flusher.page, 600],
  ]);
  assert.match(flusher.page, /^[0-9a-f-]{36}$/);
});

Deno.test("flusher: the journal's copy and the unload's keepalive bodies, cut differently, number each event alike", async () => {
  const { flusher, sent, parked } = setup();
  const all = noisy(900);
  for (const e of all.slice(0, 300)) flusher.add(e);
  const journaled = flusher.unacknowledged(); // as the journal wrote them, before the last events
  for (const e of all.slice(300)) flusher.add(e);
  flusher.hide(true); // halved to fit the keepalive budget, the rest parked
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(journaled.map((b) => b.length), [300]);
  assert.notEqual((sent[0].json.events as unknown[]).length, 300, "cut otherwise");
  assert.ok(parked[0].length > 0, "some are parked");
  const copies = new Map([...numbered(sent), ...numberedBatches(parked[0].map((b) => b.events))]);
  assert.equal(copies.size, 900);
  for (const [n, at] of copies) assert.equal(at, `${flusher.page}:${n}`);
  for (const [n, at] of numberedBatches(journaled)) assert.equal(copies.get(n), at, `event ${n}`);
});

Deno.test("flusher: batches parked at unload come back on the next page with their numbers", async () => {
  const storage = new FakeStorage();
  const before = setup();
  for (const e of noisy(900)) before.flusher.add(e);
  before.flusher.hide(true);
  await new Promise((r) => setTimeout(r, 10));
  assert.ok(before.parked[0].length > 0, "some are parked");
  savePending(storage, "s1", before.parked[0]);
  const after = setup();
  after.flusher.restore(takePending(storage, "s1"));
  for (const e of events(2, 900)) after.flusher.add(e);
  await after.flusher.flush();
  const all = new Map([...numbered(before.sent), ...numbered(after.sent)]);
  assert.equal(all.size, 902);
  for (let n = 0; n < 900; n++) assert.equal(all.get(n), `${before.flusher.page}:${n}`);
  assert.equal(all.get(900), `${after.flusher.page}:0`, "the new page numbers from 0");
});

Deno.test("flusher: events a recording decision releases are numbered before any later one", async () => {
  const { flusher, sent } = setup();
  flusher.adopt(encodedEvents(3, 0));
  for (const e of events(2, 3)) flusher.add(e);
  await flusher.flush();
  assert.deepEqual([...numbered(sent)], [0, 1, 2, 3, 4].map((n) => [n, `${flusher.page}:${n}`]));
});

Deno.test("cutBatches: a request is one run of one page's numbers", () => {
  const at = (page: string, seq: number, n: number) => ({
    ...encodeEvent(events(1, n)[0]),
    page,
    seq,
  });
  const list = [at("a", 0, 0), at("a", 1, 1), at("a", 3, 2), at("b", 4, 3), at("b", 5, 4)];
  assert.deepEqual(cutBatches(list).map((b) => b.map((e) => `${e.page}${e.seq}`)), [
    ["a0", "a1"],
    ["a3"],
    ["b4", "b5"],
  ]);
  // Unnumbered events (a previous SDK's parked batches) are cut as before.
  assert.equal(cutBatches(encodedEvents(3)).length, 1);
});
