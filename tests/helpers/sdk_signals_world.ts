// A page for the signal detector's unit tests: happy-dom's window installed as the globals the SDK
// reads, and a controlled clock (timers, Date and performance, which an event's timeStamp reads).
import FakeTimers from "@sinonjs/fake-timers";
import { Window } from "happy-dom";
import { DEFAULT_OPTIONS } from "@/sdk/options.ts";
import { type SignalPayload, watchSignals } from "@/sdk/signals/signals.ts";
import type { ResolvedOptions } from "@/sdk/types.ts";

/** The DOM globals signals.ts reads, each taken from the happy-dom window while a world lives. */
const DOM_GLOBALS = [
  "document",
  "MutationObserver",
  "CSS",
  "Node",
  "NodeFilter",
  "Element",
  "addEventListener",
  "removeEventListener",
] as const;

export interface Emitted {
  tag: string;
  payload: SignalPayload;
}

/**
 * Starts the detector on a page of `html` at time 0; nothing moves the clock but `wait()`.
 * Dispose it (`using world = …`) to stop the detector and give the globals back.
 */
export function signalsWorld(html: string, options: Partial<ResolvedOptions> = {}) {
  const clock = FakeTimers.withGlobal(globalThis).install({
    toFake: ["setTimeout", "clearTimeout", "Date", "performance"],
    now: 0,
  });
  const window = new Window({ url: "https://shop.test/checkout" });
  const document = window.document;
  document.body.innerHTML = html;
  const global = globalThis as Record<string, unknown>;
  const saved = DOM_GLOBALS.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));
  for (const name of DOM_GLOBALS) {
    const value = (window as unknown as Record<string, unknown>)[name];
    global[name] = typeof value === "function" && name.endsWith("EventListener")
      ? value.bind(window)
      : value;
  }
  const emitted: Emitted[] = [];
  const stop = watchSignals(
    { ...DEFAULT_OPTIONS, apiKey: "", endpoint: "", ...options },
    (tag, payload) => emitted.push({ tag, payload }),
  );

  const element = (selector: string) => {
    const found = document.querySelector(selector);
    if (!found) throw new Error(`no ${selector} on the page`);
    return found;
  };

  return {
    window,
    document,
    element,
    /** A click on the element at viewport point (x, y), stamped with the clock's time. */
    click(selector: string, x = 100, y = 100) {
      element(selector).dispatchEvent(
        new window.MouseEvent("click", { bubbles: true, cancelable: true, clientX: x, clientY: y }),
      );
    },
    /** Moves the clock on, firing due timers and the mutation observers' callbacks. */
    async wait(ms: number) {
      await clock.tickAsync(ms);
    },
    now: () => clock.now,
    /** The signals emitted so far with this tag. */
    signals: (tag: "service:rage_click" | "service:dead_click") =>
      emitted.filter((e) => e.tag === tag).map((e) => e.payload),
    stop,
    [Symbol.dispose]() {
      stop();
      clock.uninstall();
      DOM_GLOBALS.forEach((name, i) => {
        if (saved[i]) Object.defineProperty(globalThis, name, saved[i]);
        else delete global[name];
      });
      window.happyDOM.abort();
    },
  };
}
