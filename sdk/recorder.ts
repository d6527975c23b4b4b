// Thin wrapper over rrweb's recorder and console plugin, so the rest of the SDK never touches
// rrweb's global state directly.

import { record } from "@rrweb/record";
import { getRecordConsolePlugin } from "@rrweb/rrweb-plugin-console-record";
import { captureOptions } from "./privacy.ts";
import type { RecordedEvent, ResolvedOptions } from "./types.ts";

/** The console levels spec §1 names. */
const CONSOLE_LEVELS = ["log", "info", "warn", "error", "debug"] as const;

/** Starts rrweb (a Meta and a full snapshot come first); returns the function that stops it. */
export function startRecorder(
  options: ResolvedOptions,
  emit: (event: RecordedEvent) => void,
): () => void {
  const stop = record({
    ...captureOptions(options),
    emit: (event) => emit(event as unknown as RecordedEvent),
    plugins: options.recordConsole
      ? [getRecordConsolePlugin({ level: [...CONSOLE_LEVELS] })]
      : undefined,
  });
  return stop ?? (() => {});
}

/** Emits a custom event (type 5) through rrweb, so it is ordered with the recorder's own. */
export function addCustomEvent(tag: string, payload: unknown): void {
  record.addCustomEvent(tag, payload);
}

/** Emits a Meta event and a full snapshot of the current DOM. */
export function takeFullSnapshot(): void {
  record.takeFullSnapshot();
}
