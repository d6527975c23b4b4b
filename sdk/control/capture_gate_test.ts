import assert from "node:assert/strict";
import { CaptureGate, type GateHost } from "./capture_gate.ts";
import type { CaptureSettings } from "./settings.ts";
import type { EncodedEvent } from "@/sdk/send/encoded_event.ts";
import { isSampled } from "./sampling.ts";
import type { RecordedEvent } from "@/sdk/types.ts";

const ALL: CaptureSettings = {
  sampleRate: 1,
  minDurationMs: 0,
  urlBlock: [],
  urlAllow: [[], []],
  triggers: [],
  bufferMs: 60_000,
};

function memory() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

function fakeHost() {
  const log = {
    adopted: [] as string[],
    sent: [] as RecordedEvent[],
    capture: [] as boolean[],
    sendable: [] as boolean[],
  };
  const host: GateHost = {
    adopt: (events: EncodedEvent[]) => log.adopted.push(...events.map((e) => e.json)),
    number: () => {},
    send: (event) => (log.sent.push(event), 1),
    snapshot: () => {},
    capture: (on) => void log.capture.push(on),
    sendable: (now) => void log.sendable.push(now),
  };
  return { host, log };
}

const at = Date.now();
const ev = (type: number, t: number, data: unknown = {}): RecordedEvent => ({
  type,
  data,
  timestamp: t,
});
const consoleError = (t: number) =>
  ev(6, t, { plugin: "rrweb/console@1", payload: { level: "error", payload: ['"x"'] } });
/** A session id sampling keeps (or leaves out) at 0.5. */
function idThat(kept: boolean): string {
  for (;;) {
    const id = crypto.randomUUID();
    if (isSampled(id, 0.5) === kept) return id;
  }
}

Deno.test("capture gate: a sampled session sends what it held while pending, then each event; its later pages record too", () => {
  const storage = memory();
  const id = idThat(true);
  const { host, log } = fakeHost();
  const gate = new CaptureGate(id, storage, host, ALL);
  assert.equal(gate.route(ev(4, at)), JSON.stringify(ev(4, at)).length);
  gate.route(ev(2, at));
  assert.deepEqual(log.adopted, []);
  gate.apply({ ...ALL, sampleRate: 0.5 });
  assert.equal(gate.mode, "record");
  assert.deepEqual(log.adopted.map((j) => JSON.parse(j).type), [4, 2]);
  assert.deepEqual(log.sendable, [false]);
  gate.route(ev(3, at + 1));
  assert.equal(log.sent.length, 1);
  assert.deepEqual(gate.metadata(), {});
  // the next page of the session records even though sampling would now leave it out
  const next = new CaptureGate(id, storage, fakeHost().host, ALL);
  next.apply({ ...ALL, sampleRate: 0 });
  assert.equal(next.mode, "record");
});

Deno.test("capture gate: left out without triggers, nothing is captured or held", () => {
  const { host, log } = fakeHost();
  const gate = new CaptureGate(idThat(false), memory(), host, ALL);
  gate.route(ev(4, at));
  gate.apply({ ...ALL, sampleRate: 0.5 });
  assert.equal(gate.mode, "off");
  assert.deepEqual(log.capture, [false]);
  assert.equal(gate.route(ev(3, at)), 0);
  assert.deepEqual(log.adopted, []);
});

Deno.test("capture gate: left out with the error trigger, an error records from the buffer, with its reason and time", () => {
  const storage = memory();
  const id = idThat(false);
  const { host, log } = fakeHost();
  const gate = new CaptureGate(id, storage, host, ALL);
  gate.apply({ ...ALL, sampleRate: 0.5, triggers: ["error"] });
  assert.equal(gate.mode, "buffer");
  gate.route(ev(4, at));
  gate.route(ev(2, at));
  gate.route(ev(5, at + 10, { tag: "service:rage_click", payload: {} })); // not a trigger here
  assert.equal(gate.mode, "buffer");
  gate.route(consoleError(at + 40_000));
  assert.equal(gate.mode, "record");
  assert.deepEqual(log.adopted.map((j) => JSON.parse(j).type), [4, 2, 5, 6]);
  assert.deepEqual(log.sendable, [true]);
  assert.deepEqual(gate.metadata(), { recordingReason: "error", triggeredAt: at + 40_000 });
  // the session's next page records from its start, with the same reason
  const next = new CaptureGate(id, storage, fakeHost().host, ALL);
  next.apply({ ...ALL, sampleRate: 0 });
  assert.equal(next.mode, "record");
  assert.deepEqual(next.metadata(), { recordingReason: "error", triggeredAt: at + 40_000 });
});

Deno.test("capture gate: Playhead.trigger() before the settings came records as manual once they do", () => {
  const { host, log } = fakeHost();
  const gate = new CaptureGate(idThat(false), memory(), host, ALL);
  gate.route(ev(4, at));
  gate.trigger("manual", at + 5);
  gate.apply({ ...ALL, sampleRate: 0.5 });
  assert.equal(gate.mode, "record");
  assert.deepEqual(gate.metadata(), { recordingReason: "manual", triggeredAt: at + 5 });
  assert.deepEqual(log.adopted.map((j) => JSON.parse(j).type), [4]);
  gate.dispose();
});

Deno.test("capture gate: a page is allowed as the settings in force say", () => {
  const gate = new CaptureGate(crypto.randomUUID(), memory(), fakeHost().host, {
    ...ALL,
    urlBlock: ["/admin/**"],
  });
  assert.equal(gate.allows("https://x.test/admin/users?q=1"), false);
  assert.equal(gate.allows("https://x.test/shop"), true);
  gate.apply({ ...ALL, urlAllow: [["/shop/**", "/admin/**"], []] }); // replaces the first rules
  assert.equal(gate.allows("https://x.test/admin/users"), true);
  assert.equal(gate.allows("https://x.test/blog"), false);
});

Deno.test("capture gate: a session left out carries its buffer to its next page, where a trigger records from the earlier page", () => {
  const storage = memory();
  const id = idThat(false);
  const settings = { ...ALL, sampleRate: 0.5, triggers: ["error" as const] };
  let seq = 0;
  const number = (events: EncodedEvent[]) => {
    for (const e of events) if (e.page === undefined) Object.assign(e, { page: "p1", seq: seq++ });
  };
  const one = { url: "https://shop.test/one", referrer: "" };
  const first = new CaptureGate(id, storage, { ...fakeHost().host, number }, ALL);
  first.route(ev(4, at));
  assert.deepEqual(first.keep(one), [], "nothing while pending");
  first.apply(settings);
  first.route(ev(2, at));

  const { host, log } = fakeHost();
  const next = new CaptureGate(id, storage, host, ALL);
  next.route(ev(4, at + 20_000));
  next.apply(settings, "https://shop.test/two", first.keep(one));
  next.route(consoleError(at + 45_000));
  assert.equal(next.mode, "record");
  assert.deepEqual(log.adopted.map((j) => JSON.parse(j).timestamp), [
    at,
    at,
    at + 20_000,
    at + 45_000,
  ]);
  assert.deepEqual(next.metadata(), {
    recordingReason: "error",
    triggeredAt: at + 45_000,
    ...one,
  });
  assert.deepEqual(next.keep(one), [], "a recorded session keeps no buffer");
});
