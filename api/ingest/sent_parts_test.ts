import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { METADATA, recordedEvents, sdkGzipBody } from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";
import { inOrderSent, sentParts } from "./sent_parts.ts";

const T0 = recent(1_760_000_000_000);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const inflate = (gzip: Uint8Array) => new Uint8Array(gunzipSync(gzip));

async function sdkBody(events: unknown[], parts?: (p: string[]) => string[]) {
  const gzip = await sdkGzipBody(
    { sessionId: crypto.randomUUID(), events, metadata: METADATA },
    parts,
  );
  return { gzip, body: inflate(gzip) };
}

Deno.test("sent parts: an SDK body is read part by part, its events' member as it came", async () => {
  const events = recordedEvents(5, T0);
  const { gzip, body } = await sdkBody(events);
  const parts = sentParts(gzip, body)!;
  assert.deepEqual(parts.json, JSON.parse(text(body)));
  assert.equal(text(parts.events.inflated), JSON.stringify(events));
  assert.equal(text(inflate(parts.events.gzip)), JSON.stringify(events));
  // The member is the body's own bytes, not a copy made anew.
  const at = gzip.indexOf(parts.events.gzip[0], 10);
  assert.deepEqual(gzip.subarray(at, at + parts.events.gzip.length), parts.events.gzip);
});

Deno.test("sent parts: a body of another shape is read whole (null)", async (t) => {
  const events = recordedEvents(3, T0);
  await t.step("one member (older SDKs, other clients)", async () => {
    const { gzip, body } = await sdkBody(events, (p) => [p.join("")]);
    assert.equal(sentParts(gzip, body), null);
  });
  await t.step("the events' array split across members", async () => {
    const { gzip, body } = await sdkBody(events, ([head, list, rest]) => {
      const cut = list.indexOf("},{") + 1;
      return [head, list.slice(0, cut), list.slice(cut) + rest];
    });
    assert.equal(sentParts(gzip, body), null);
    assert.equal((JSON.parse(text(body)) as { events: unknown[] }).events.length, 3);
  });
  await t.step("the events' member holding more than the array", async () => {
    const { gzip, body } = await sdkBody(events, ([head, list, rest]) => [head, list + rest]);
    assert.equal(sentParts(gzip, body), null);
  });
  await t.step("a second events member in the rest (JSON's last one wins)", async () => {
    const { gzip, body } = await sdkBody(
      events,
      ([head, list, rest]) => [head, list, `,"events":[]${rest}`],
    );
    assert.equal(sentParts(gzip, body), null);
  });
  await t.step("a head other than the events' key", async () => {
    const { gzip, body } = await sdkBody(events, ([, list, rest]) => ['{"events" :', list, rest]);
    assert.equal(sentParts(gzip, body), null);
  });
  await t.step("members that inflate to other bytes than the body read", async () => {
    const { gzip } = await sdkBody(events);
    const other = inflate((await sdkBody(recordedEvents(3, T0 + 1))).gzip);
    assert.equal(sentParts(gzip, other), null);
  });
});

Deno.test("sent parts: events are in the order sent only with every event's members so", () => {
  const sent = [{ type: 3, data: {}, timestamp: 1 }, { type: 3, data: {}, timestamp: 2, x: 1 }];
  assert.ok(inOrderSent(sent, sent.map((e) => ({ ...e }))));
  // zod puts the schema's keys first: what was sent in another order is stored reordered.
  const reordered = [{ timestamp: 1, type: 3, data: {} }, sent[1]];
  assert.equal(inOrderSent(reordered, sent), false);
  const proto = JSON.parse('[{"type":3,"data":{},"timestamp":1,"__proto__":{}}]');
  assert.equal(inOrderSent(proto, [{ type: 3, data: {}, timestamp: 1 }]), false);
  assert.equal(inOrderSent(sent, sent.slice(1)), false);
});
