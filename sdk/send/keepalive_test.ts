import assert from "node:assert/strict";
import { gzipSync } from "fflate";
import { KEEPALIVE_BUDGET_BYTES, planKeepalive, savePending, takePending } from "./keepalive.ts";
import { type EncodedEvent, encodeEvent, ingestJson } from "./encoded_event.ts";
import {
  decoded,
  encodedEvents,
  events,
  FakeStorage,
  gunzip,
} from "@/tests/helpers/sdk_doubles.ts";
import type { RecordedEvent, SessionMetadata } from "@/sdk/types.ts";

const serialize = (list: EncodedEvent[], index: number) =>
  new TextEncoder().encode(
    ingestJson("s", list, index === 0 ? { url: "u" } as SessionMetadata : undefined).join(""),
  );

/** Incompressible-ish events: random hex payloads. */
function noisy(count: number, from = 0): EncodedEvent[] {
  return events(count, from).map((e) => {
    const bytes = crypto.getRandomValues(new Uint8Array(200));
    return encodeEvent({
      ...e,
      data: { ...(e.data as object), noise: Array.from(bytes).join(",") },
    });
  });
}

const ns = (list: RecordedEvent[]) => list.map((e) => (e.data as { n: number }).n);

async function decode(bodies: Uint8Array[]) {
  const out = [];
  for (const body of bodies) out.push(JSON.parse(new TextDecoder().decode(await gunzip(body))));
  return out;
}

Deno.test("keepalive: small leftovers go in one gzipped body with the metadata", async () => {
  const plan = planKeepalive(
    [{ events: encodedEvents(20) }],
    serialize,
    gzipSync,
    KEEPALIVE_BUDGET_BYTES,
  );
  assert.equal(plan.bodies.length, 1);
  assert.deepEqual(plan.rest, []);
  const [body] = await decode(plan.bodies);
  assert.deepEqual(body.metadata, { url: "u" });
  assert.equal(body.events.length, 20);
});

Deno.test("keepalive: bodies fit the 64 KB budget together; the rest keeps its order", async () => {
  const all = noisy(1_500);
  const plan = planKeepalive(
    [{ events: all.slice(0, 500) }, { events: all.slice(500, 1000) }, {
      events: all.slice(1000),
    }],
    serialize,
    gzipSync,
    KEEPALIVE_BUDGET_BYTES,
  );
  const total = plan.bodies.reduce((n, b) => n + b.length, 0);
  assert.ok(total <= KEEPALIVE_BUDGET_BYTES, `${total} bytes`);
  assert.ok(total > KEEPALIVE_BUDGET_BYTES / 2, "the budget is mostly used");
  assert.ok(plan.bodies.length > 1);
  const bodies = await decode(plan.bodies);
  assert.ok(bodies[0].metadata && bodies.slice(1).every((b) => !b.metadata));
  const sent = bodies.flatMap((b) => b.events as RecordedEvent[]);
  const rest = decoded(plan.rest.flatMap((b) => b.events));
  assert.deepEqual(
    ns([...sent, ...rest]),
    ns(decoded(all)),
    "nothing lost, nothing repeated, in order",
  );
  assert.ok(plan.rest.every((b) => b.events.length <= 500));
});

Deno.test("keepalive: an atomic batch is sent whole or parked whole", () => {
  const big = noisy(500);
  const plan = planKeepalive(
    [{ events: big, atomic: true }, { events: encodedEvents(5, 1000) }],
    serialize,
    gzipSync,
    KEEPALIVE_BUDGET_BYTES,
  );
  assert.equal(plan.bodies.length, 0);
  assert.equal(plan.rest.length, 2);
  assert.equal(plan.rest[0].events, big);
});

Deno.test("keepalive: an empty or exhausted budget sends nothing", () => {
  const plan = planKeepalive([{ events: encodedEvents(3) }], serialize, gzipSync, 10);
  assert.equal(plan.bodies.length, 0);
  assert.equal(plan.rest.flatMap((b) => b.events).length, 3);
});

Deno.test("keepalive: parked batches come back once, for the same session only", () => {
  const storage = new FakeStorage();
  const batches = [encodedEvents(3), [], encodedEvents(2, 3)].map((events) => ({ events }));
  savePending(storage, "s1", batches);
  assert.deepEqual(takePending(storage, "s2"), []);
  const back = takePending(storage, "s1");
  assert.deepEqual(back.map((b) => b.events.length), [3, 2]);
  assert.deepEqual(back.flatMap((b) => b.events), [...batches[0].events, ...batches[2].events]);
  assert.deepEqual(takePending(storage, "s1"), []);
});

Deno.test("keepalive: when sessionStorage is full the oldest parked batches go first", () => {
  const storage = new FakeStorage(JSON.stringify([{ events: events(10, 0, 20) }]).length + 50);
  savePending(storage, "s1", [{ events: encodedEvents(10, 0, 20) }, {
    events: encodedEvents(10, 10, 20),
  }]);
  const back = takePending(storage, "s1");
  assert.equal(back.length, 1);
  assert.equal(ns(decoded(back[0].events))[0], 10);
});

Deno.test("keepalive: batches parked by an earlier SDK build (plain events) come back", () => {
  const storage = new FakeStorage();
  storage.setItem("playhead:pending:s1", JSON.stringify([{ events: events(2), atomic: true }]));
  const back = takePending(storage, "s1");
  assert.deepEqual(back.map((b) => decoded(b.events)), [events(2)]);
});
