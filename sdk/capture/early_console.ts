// Console calls made before rrweb's first full snapshot. rrweb patches the console only when it
// starts observing, at the page's `load` when the snippet runs in <head>, so an inline script's
// log during page load was lost. From init() until that snapshot, the console plugin's own
// observer runs here and its records are held, then handed over in order, each with the time it
// was made, right after the snapshot (and before rrweb's own patch takes over).
import { getRecordConsolePlugin } from "@rrweb/rrweb-plugin-console-record";
import { EventType } from "@rrweb/types";
import type { RecordedEvent } from "@/sdk/types.ts";

/** The console levels the SDK records. */
export const CONSOLE_LEVELS = ["log", "info", "warn", "error", "debug"] as const;
/** A page that logs in a loop before load must not grow the buffer without bound. */
const MAX_HELD = 1000;

export function consolePlugin() {
  return getRecordConsolePlugin({ level: [...CONSOLE_LEVELS] });
}

export class EarlyConsole {
  #held: RecordedEvent[] = [];
  #stop: (() => void) | null;

  constructor() {
    const plugin = consolePlugin();
    this.#stop = plugin.observer?.(
      (payload) => {
        if (this.#held.length >= MAX_HELD) return;
        this.#held.push({
          type: EventType.Plugin,
          data: { plugin: plugin.name, payload },
          timestamp: Date.now(),
        } as RecordedEvent);
        // rrweb's IWindow is its own globalThis type; the page's window is what it means.
      },
      window as unknown as Parameters<NonNullable<typeof plugin.observer>>[1],
      plugin.options,
    ) ??
      null;
  }

  /** Restores the console and hands over what was held (once; later calls get nothing). */
  take(): RecordedEvent[] {
    this.#stop?.();
    this.#stop = null;
    const held = this.#held;
    this.#held = [];
    return held;
  }
}
