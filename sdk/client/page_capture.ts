// What records on this page while the client says so: rrweb with its snapshot pacer, the signal
// detector, and the console calls held until rrweb's first snapshot (sdk/capture/early_console.ts).
import { EarlyConsole } from "@/sdk/capture/early_console.ts";
import { startRecorder, takeFullSnapshot } from "@/sdk/capture/recorder.ts";
import { watchSignals } from "@/sdk/signals/signals.ts";
import { SnapshotPacer } from "@/sdk/capture/snapshot_pacer.ts";
import type { RecordedEvent, ResolvedOptions } from "@/sdk/types.ts";

export interface CaptureSink {
  /** Takes an event; returns the bytes it added, for the pacer (sdk/control/capture_gate.ts). */
  route(event: RecordedEvent): number;
  /** A signal, as a custom event. */
  push(tag: string, payload: unknown): void;
  /** The pacer asks for a full snapshot. */
  snapshot(): void;
}

export class PageCapture {
  #stopRecorder: (() => void) | null = null;
  #stopSignals: (() => void) | null = null;
  #earlyConsole: EarlyConsole | null;

  constructor(readonly options: ResolvedOptions, readonly sink: CaptureSink) {
    this.#earlyConsole = options.recordConsole ? new EarlyConsole() : null;
  }

  get running(): boolean {
    return this.#stopRecorder !== null;
  }

  start(): void {
    if (this.running) return;
    const pacer = new SnapshotPacer();
    this.#stopRecorder = startRecorder(
      this.options,
      (e) => {
        // Taken in a task of its own, not inside rrweb's emit.
        if (pacer.add(e, this.sink.route(e))) setTimeout(() => this.sink.snapshot(), 0);
      },
      this.#earlyConsole,
    );
    this.#earlyConsole = null;
    this.#stopSignals = watchSignals(this.options, (tag, payload) => this.sink.push(tag, payload));
  }

  halt(): void {
    this.#stopRecorder?.();
    this.#stopRecorder = null;
    this.#stopSignals?.();
    this.#stopSignals = null;
  }

  /** A page the URL rules leave out keeps its console to itself. */
  dropEarlyConsole(): void {
    this.#earlyConsole?.take();
    this.#earlyConsole = null;
  }

  /** A full snapshot now, if running. */
  snapshot(): void {
    if (!this.running) return;
    try {
      takeFullSnapshot();
    } catch {
      // rrweb has not started yet (it waits for DOMContentLoaded): its first snapshot comes.
    }
  }
}
