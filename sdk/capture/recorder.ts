// Thin wrapper over rrweb's recorder and console plugin, so the rest of the SDK never touches
// rrweb's global state directly.

import { record } from "@rrweb/record";
import { EventType } from "@rrweb/types";
import {
  maskConsoleRecord,
  maskedValues,
  maskedValuesPerTask,
  withoutConsoleUserinfo,
} from "./console_mask.ts";
import { consolePlugin, type EarlyConsole } from "./early_console.ts";
import { withErrorEvidence } from "./error_evidence.ts";
import { captureOptions } from "./privacy.ts";
import type { RecordedEvent, ResolvedOptions } from "@/sdk/types.ts";

/**
 * Starts rrweb (a Meta and a full snapshot come first); returns the function that stops it. What
 * `early` held is emitted right after the first full snapshot.
 */
export function startRecorder(
  options: ResolvedOptions,
  emit: (event: RecordedEvent) => void,
  early: EarlyConsole | null = null,
): () => void {
  const masked = maskedValuesPerTask(() =>
    maskedValues(document, {
      maskInputs: options.privacyMaskInputs,
      maskAttribute: options.privacyMaskAttribute,
      blockAttribute: options.privacyBlockAttribute,
    })
  );
  const evidence = (event: RecordedEvent) =>
    withErrorEvidence(maskConsoleRecord(withoutConsoleUserinfo(event), masked));
  const stop = record({
    ...captureOptions(options),
    emit: (raw) => {
      const event = raw as unknown as RecordedEvent;
      emit(evidence(event));
      if (early && event.type === EventType.FullSnapshot) {
        for (const held of early.take()) emit(evidence(held));
        early = null;
      }
    },
    plugins: options.recordConsole ? [consolePlugin(), networkRelay] : [networkRelay],
  });
  return () => {
    stop?.();
    // Stopped before the first snapshot (rrweb waits for the page's load): the console is ours.
    early?.take();
    early = null;
  };
}

let networkSink: ((payload: unknown) => void) | null = null;

/**
 * The network bundle's way into rrweb's stream (sdk/network/loader.ts): it records requests
 * itself and emits them here as `rrweb/network@1` plugin events, while rrweb records this page.
 */
const networkRelay = {
  name: "rrweb/network@1",
  options: null,
  observer(callback: (payload: unknown) => void, win: unknown) {
    if (win !== globalThis) return () => {}; // rrweb observes same-origin frames too
    networkSink = callback;
    return () => {
      if (networkSink === callback) networkSink = null;
    };
  },
};

/** Emits a network plugin payload; false when rrweb is not recording. */
export function emitNetwork(payload: unknown): boolean {
  networkSink?.(payload);
  return networkSink !== null;
}

/**
 * Emits a custom event (type 5) through rrweb, so it is ordered with the recorder's own; false
 * when rrweb has not started yet (it throws then).
 */
export function addCustomEvent(tag: string, payload: unknown): boolean {
  try {
    record.addCustomEvent(tag, payload);
    return true;
  } catch {
    return false;
  }
}

/** A custom event made outside rrweb, for when it is not running. */
export function customEvent(tag: string, payload: unknown): RecordedEvent {
  return { type: EventType.Custom, data: { tag, payload }, timestamp: Date.now() } as RecordedEvent;
}

/** Emits a Meta event and a full snapshot of the current DOM. */
export function takeFullSnapshot(): void {
  record.takeFullSnapshot();
}
