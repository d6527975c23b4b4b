import assert from "node:assert/strict";
import type { EncodedEvent } from "@/sdk/send/encoded_event.ts";
import { carried, keptOf, type KeptSegment } from "@/sdk/journal/kept_segments.ts";
import { type HeldSegment, TriggerBuffer } from "./trigger_buffer.ts";

/** What the next page reads back of what a page kept: through the journal's shape. */
const journaled = (held: HeldSegment[]) => carried(held.map(keptOf));

const S = 1_000;
const ev = (tag: string, bytes = 10) => ({ json: tag, bytes });

/** A page from 0 with a snapshot (Meta) every `every` ms and an event each second until `end`. */
function page(buffer: TriggerBuffer, every: number, end: number) {
  for (let t = 0; t <= end; t += S) {
    if (t % every === 0) buffer.add(ev(`meta@${t}`), 4, t);
    else buffer.add(ev(`e@${t}`), 3, t);
    buffer.prune(t);
  }
}

Deno.test("trigger buffer: a trigger's recording opens with the latest snapshot at least 30 s before it", () => {
  for (const [trigger, expected] of [[40, 0], [89, 0], [90, 60], [119, 60], [150, 120]]) {
    const b = new TriggerBuffer();
    page(b, 60 * S, trigger * S);
    const events = b.take(trigger * S);
    assert.equal(events[0].json, `meta@${expected * S}`, `trigger at ${trigger} s`);
    assert.equal(events.at(-1)!.json, `e@${trigger * S}`);
    const lead = trigger - expected;
    assert.ok(lead >= 30 || expected === 0, `${lead} s before`);
    assert.ok(lead <= 60 + 30, `${lead} s before`);
    assert.equal(b.bytes, 0);
  }
});

Deno.test("trigger buffer: a page younger than 30 s is recorded from its start", () => {
  const b = new TriggerBuffer();
  b.add(ev("identify"), 5, 0); // before rrweb's first snapshot
  page(b, 10 * S, 25 * S);
  assert.equal(b.take(25 * S)[0].json, "identify");
});

Deno.test("trigger buffer: pruning keeps one qualifying segment; memory stays within the bound", () => {
  const b = new TriggerBuffer(1_000, 1_000_000);
  // 10 bytes a second, a snapshot every 60 s: at most ~90 s (900 bytes) held
  for (let t = 0; t <= 3_600 * S; t += S) {
    b.add(ev(t % (60 * S) === 0 ? "meta" : "e"), t % (60 * S) === 0 ? 4 : 3, t);
    b.prune(t);
    assert.ok(b.bytes <= 910, `${b.bytes} at ${t}`);
  }
  assert.equal(b.overflowed(), false);
});

Deno.test("trigger buffer: past the bound the oldest whole segments go, then the newest, which asks for a snapshot", () => {
  const b = new TriggerBuffer(100, 1_000);
  b.add(ev("meta-a", 40), 4, 0);
  b.add(ev("a", 40), 3, 1);
  b.add(ev("meta-b", 40), 4, 2); // 120 bytes: segment a goes whole
  assert.equal(b.bytes, 40);
  assert.equal(b.overflowed(), false);
  assert.equal(b.take(2)[0].json, "meta-b");
  b.add(ev("meta-c", 60), 4, 3);
  b.add(ev("c", 60), 3, 4); // the only segment is past the bound
  assert.equal(b.bytes, 0);
  assert.equal(b.overflowed(), true);
  assert.equal(b.overflowed(), false);
  const events = new TriggerBuffer(1_000, 2);
  events.add(ev("m"), 4, 0);
  events.add(ev("x"), 3, 1);
  events.add(ev("m2"), 4, 2); // three events: the first segment goes
  assert.deepEqual(events.takeAll().map((e) => e.json), ["m2"]);
});

/** Numbers events as a flusher of page `page` would: each without a number gets the next. */
function numberer(page: string) {
  let seq = 0;
  return (events: EncodedEvent[]) => {
    for (const e of events) if (e.page === undefined) Object.assign(e, { page, seq: seq++ });
  };
}
const ONE = { url: "https://shop.test/one", referrer: "https://search.test/" };
const TWO = { url: "https://shop.test/two", referrer: ONE.url };

Deno.test("trigger buffer: the next page puts what the earlier one kept before its own, numbered as that page's", () => {
  const one = new TriggerBuffer();
  page(one, 60 * S, 20 * S); // a page of 20 s
  const kept = one.keep(ONE, numberer("p1"));
  assert.deepEqual(one.keep(ONE, numberer("p1")), kept, "each copy has the same numbers");
  assert.deepEqual(
    kept.map(keptOf).map((s) => [s.start, s.page, s.runs.map((r) => [r.pageId, r.seq])]),
    [
      [0, ONE, [["p1", 0]]],
    ],
  );
  const two = new TriggerBuffer();
  two.add(ev("url@20"), 5, 20 * S); // its url marker, before its first snapshot
  two.add(ev("meta@20"), 4, 20 * S);
  two.carry(journaled(kept), 20 * S - 90 * S);
  two.add(ev("e@45"), 3, 45 * S);
  // 45 s: the latest snapshot 30 s before is the first page's, which the url marker now follows
  assert.deepEqual(two.startPage(45 * S), ONE);
  const events = two.take(45 * S);
  assert.deepEqual(events.slice(0, 2).map((e) => [e.json, e.page, e.seq]), [
    ["meta@0", "p1", 0],
    ["e@1000", "p1", 1],
  ]);
  assert.deepEqual(events.slice(21).map((e) => e.json), ["url@20", "meta@20", "e@45"]);
  assert.ok(events.slice(21).every((e) => e.page === undefined), "this page's own: not yet");
});

Deno.test("trigger buffer: at 30 s after the next page's snapshot, the recording starts there", () => {
  const one = new TriggerBuffer();
  page(one, 60 * S, 20 * S);
  const two = new TriggerBuffer();
  two.add(ev("meta@20"), 4, 20 * S);
  two.carry(journaled(one.keep(ONE, numberer("p1"))), 0);
  assert.deepEqual(two.startPage(50 * S - 1), ONE);
  assert.equal(two.startPage(50 * S), undefined, "this page's own");
  assert.equal(two.take(50 * S)[0].json, "meta@20");
});

Deno.test("trigger buffer: kept segments begun before `since`, ill-formed or kept twice are carried once or not at all", () => {
  const one = new TriggerBuffer();
  page(one, 10 * S, 30 * S); // segments at 0, 10, 20 and 30 s
  const kept = one.keep(ONE, numberer("p1")).map(keptOf);
  const again = kept.map((s) => structuredClone(s)); // the page back from the bfcache kept them too
  const odd = [{ start: 5, page: TWO, runs: [{ pageId: "p9", seq: 0, events: [1] }] }];
  const two = new TriggerBuffer();
  two.carry(carried([...again, ...(odd as unknown as KeptSegment[]), ...kept]), 10 * S);
  const events = two.takeAll().map((e) => e.json);
  assert.deepEqual(events.filter((j) => j.startsWith("meta")), [
    "meta@10000",
    "meta@20000",
    "meta@30000",
  ]);
  assert.equal(events.length, 21);
});

Deno.test("trigger buffer: the bound holds for the earlier pages' segments and this page's together", () => {
  const big = (tag: string) => ({ json: tag.padEnd(40, "."), bytes: 40 }); // carried: measured again
  const one = new TriggerBuffer();
  for (const t of [0, 1, 2]) one.add(big(`meta@${t}`), 4, t);
  const two = new TriggerBuffer(100, 1_000);
  two.add(big("meta@3"), 4, 3);
  two.carry(journaled(one.keep(TWO, numberer("p1"))), 0);
  assert.equal(two.bytes, 80);
  assert.deepEqual(two.takeAll().map((e) => e.json.slice(0, 6)), ["meta@2", "meta@3"]);
});
