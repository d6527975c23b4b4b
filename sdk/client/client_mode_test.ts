import assert from "node:assert/strict";
import {
  type ClientInput,
  type ClientMode,
  consented,
  type GateMode,
  initialMode,
  type SendMode,
  transition,
} from "./client_mode.ts";
import type { RecorderState } from "@/sdk/types.ts";

const INPUTS: ClientInput[] = [
  "start",
  "pause",
  "resume",
  "cancel",
  "release",
  "sendable",
  "captureOff",
  "captureOn",
  "settings",
  "refused",
  "leave",
  "back",
];
const RUNS: RecorderState[] = ["idle", "recording", "paused"];
const SENDS: SendMode[] = ["waiting", "consented", "held", "sending"];
const GATES: GateMode[] = ["pending", "on", "off"];

// Each part of the mode and where each input takes it; an input a part's table leaves out leaves
// that part as it is. Every row is written out, so a transition changed changes one cell.

const RUN: Partial<Record<ClientInput, Record<RecorderState, RecorderState>>> = {
  start: { idle: "recording", recording: "recording", paused: "recording" },
  pause: { idle: "idle", recording: "paused", paused: "paused" },
  resume: { idle: "idle", recording: "recording", paused: "recording" },
  cancel: { idle: "idle", recording: "idle", paused: "idle" },
};

const SEND: Partial<Record<ClientInput, Record<SendMode, SendMode>>> = {
  // A new session: its gate has not let it send; consent stays as it was given.
  cancel: { waiting: "waiting", consented: "consented", held: "waiting", sending: "consented" },
  release: { waiting: "consented", consented: "consented", held: "sending", sending: "sending" },
  sendable: { waiting: "held", consented: "sending", held: "held", sending: "sending" },
};

const GATE: Partial<Record<ClientInput, Record<GateMode, GateMode>>> = {
  cancel: { pending: "pending", on: "pending", off: "pending" },
  captureOff: { pending: "off", on: "off", off: "off" },
  captureOn: { pending: "on", on: "on", off: "on" },
  settings: { pending: "on", on: "on", off: "off" },
  refused: { pending: "off", on: "off", off: "off" },
};

const SETTINGS: Partial<Record<ClientInput, Record<"unread" | "read", boolean>>> = {
  settings: { unread: true, read: true },
};

const LEFT: Partial<Record<ClientInput, Record<"open" | "left", boolean>>> = {
  leave: { open: true, left: true },
  back: { open: false, left: false },
};

function* everyMode(): Generator<ClientMode> {
  for (const run of RUNS) {
    for (const send of SENDS) {
      for (const gate of GATES) {
        for (const settings of [false, true]) {
          for (const left of [false, true]) yield { run, send, gate, settings, left };
        }
      }
    }
  }
}

Deno.test("client mode: every mode and every input, as the table says", () => {
  let pairs = 0;
  for (const mode of everyMode()) {
    for (const input of INPUTS) {
      const expected: ClientMode = {
        run: RUN[input]?.[mode.run] ?? mode.run,
        send: SEND[input]?.[mode.send] ?? mode.send,
        gate: GATE[input]?.[mode.gate] ?? mode.gate,
        settings: SETTINGS[input]?.[mode.settings ? "read" : "unread"] ?? mode.settings,
        left: LEFT[input]?.[mode.left ? "left" : "open"] ?? mode.left,
      };
      const before = structuredClone(mode);
      assert.deepEqual(transition(mode, input), expected, `${JSON.stringify(mode)} + ${input}`);
      assert.deepEqual(mode, before, "the mode given is not changed");
      pairs++;
    }
  }
  assert.equal(pairs, 3 * 4 * 3 * 2 * 2 * 12);
});

Deno.test("client mode: a new client is idle, its gate pending, held by consent only with hold", () => {
  const base = { run: "idle", gate: "pending", settings: false, left: false } as const;
  assert.deepEqual(initialMode(true), { ...base, send: "waiting" });
  assert.deepEqual(initialMode(false), { ...base, send: "consented" });
});

Deno.test("client mode: consent is given in consented and sending only", () => {
  const given = SENDS.filter((send) => consented({ ...initialMode(false), send }));
  assert.deepEqual(given, ["consented", "sending"]);
});

Deno.test("client mode: with hold, the flusher is released only once both the gate and release() let it", () => {
  for (const order of [["sendable", "release"], ["release", "sendable"]] as ClientInput[][]) {
    let mode = initialMode(true);
    mode = transition(mode, order[0]);
    assert.notEqual(mode.send, "sending", `after ${order[0]} alone`);
    mode = transition(mode, order[1]);
    assert.equal(mode.send, "sending", `after ${order.join(" then ")}`);
  }
});
