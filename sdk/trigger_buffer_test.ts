import assert from "node:assert/strict";
import { TriggerBuffer } from "./trigger_buffer.ts";

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
