// The recording client's one mode and how each thing that happens moves it (sdk/client/client.ts
// reads and writes only this): what the page asked (`run`), whether events may leave (`send`),
// what the capture gate decided (`gate`), whether the project's settings were read, and whether
// the page was left.
import type { RecorderState } from "@/sdk/types.ts";

/**
 * Whether events may leave the page, by the gate (the session is recorded and old enough) and by
 * consent (`hold: true` until `release()`): `waiting` for both, `consented` waiting for the gate,
 * `held` waiting for consent (the flusher holds), `sending` (the flusher is released).
 */
export type SendMode = "waiting" | "consented" | "held" | "sending";

/**
 * The capture gate (sdk/control/capture_gate.ts) as the client sees it: `pending` until it applied
 * settings, `off` when this page captures nothing (left out without triggers, or a key the service
 * refused), else `on` (recorded or buffered: the gate's own business).
 */
export type GateMode = "pending" | "on" | "off";

export interface ClientMode {
  run: RecorderState;
  send: SendMode;
  gate: GateMode;
  /** The project's settings were read (or the last known ones applied at leaving). */
  settings: boolean;
  /** `pagehide` came, and no `pageshow` from the back/forward cache since. */
  left: boolean;
}

/**
 * What happens to the client: the page's calls (`start`, `pause`, `resume`, `cancel`, `release`);
 * the gate letting the session send (`sendable`), turning capture off or on again (`captureOff`,
 * `captureOn`: a trigger while off); the settings applied (`settings`) or the key refused
 * (`refused`); the page left (`leave`) and back from the back/forward cache (`back`).
 */
export type ClientInput =
  | "start"
  | "pause"
  | "resume"
  | "cancel"
  | "release"
  | "sendable"
  | "captureOff"
  | "captureOn"
  | "settings"
  | "refused"
  | "leave"
  | "back";

/** A new client: idle, held by the gate (and by consent with `hold: true`), settings unread. */
export function initialMode(hold: boolean): ClientMode {
  return {
    run: "idle",
    send: hold ? "waiting" : "consented",
    gate: "pending",
    settings: false,
    left: false,
  };
}

/** Whether consent is given (`hold: false`, or `release()` called). */
export function consented({ send }: ClientMode): boolean {
  return send === "consented" || send === "sending";
}

/** The mode after `input`. */
export function transition(mode: ClientMode, input: ClientInput): ClientMode {
  const { run, send } = mode;
  switch (input) {
    case "start":
      return { ...mode, run: "recording" };
    case "pause":
      return { ...mode, run: run === "recording" ? "paused" : run };
    case "resume":
      return { ...mode, run: run === "paused" ? "recording" : run };
    case "cancel":
      // A new session: nothing sent until its gate decides; consent stays as given.
      return {
        ...mode,
        run: "idle",
        send: consented(mode) ? "consented" : "waiting",
        gate: "pending",
      };
    case "release":
      return { ...mode, send: send === "held" || send === "sending" ? "sending" : "consented" };
    case "sendable":
      return { ...mode, send: consented(mode) ? "sending" : "held" };
    case "captureOff":
    case "refused":
      return { ...mode, gate: "off" };
    case "captureOn":
      return { ...mode, gate: "on" };
    case "settings":
      return { ...mode, settings: true, gate: mode.gate === "pending" ? "on" : mode.gate };
    case "leave":
      return { ...mode, left: true };
    case "back":
      return { ...mode, left: false };
  }
}
