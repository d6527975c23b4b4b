// Builds player-side keyframes while the page is idle: a second, hidden rrweb Replayer plays the
// recording through in short steps (each its own background task), and a keyframe of its document is
// taken after every full-snapshot rebuild and whenever KEYFRAME_WORK_MS of fast-forward work has
// piled up since the last one. A seek then restores the nearest keyframe and fast-forwards only
// the span after it, instead of rebuilding the last full snapshot and replaying everything since.
import { EventType, IncrementalSource } from "@rrweb/types";
import { Replayer } from "rrweb";
import type { RecordedEvent } from "./decode.ts";
import { captureKeyframe, type Keyframe } from "./keyframe.ts";
import { keyframeDue, KeyframeList, nextStepSize, stepEnd } from "./keyframe_plan.ts";
import { hasKeyframeSupport } from "./replayer_internals.ts";

/** Incremental sources a DOM clone does not carry: CSSOM rules, fonts, adopted stylesheets. */
const UNCLONABLE_SOURCES = new Set<number>([
  IncrementalSource.StyleSheetRule,
  IncrementalSource.Font,
  IncrementalSource.StyleDeclaration,
  IncrementalSource.AdoptedStyleSheet,
]);

export class KeyframeScout {
  readonly keyframes = new KeyframeList<Keyframe>();
  #replayer: Replayer | null = null;
  #host: HTMLElement;
  #next = 0; // index in `events` of the first event not applied yet
  #size = 50;
  #work = 0;
  #cancelTask = () => {};
  #usable = true;

  /**
   * `events` is the recording's sorted stream, read as it grows; while `held()` (the player plays)
   * the scout waits, so playback keeps the main thread; `onDone` hears when it has caught up.
   */
  constructor(
    private readonly events: readonly RecordedEvent[],
    private readonly held: () => boolean,
    private readonly onDone: () => void,
  ) {
    this.#host = document.createElement("div");
    this.#host.className = "replay-scout";
    this.#host.setAttribute("aria-hidden", "true");
    this.#host.inert = true;
    document.body.append(this.#host);
    this.#schedule();
  }

  /** Every event is applied and has its keyframe, or keyframes cannot be made for this stream. */
  get done(): boolean {
    return !this.#usable || (this.#next >= this.events.length && this.#replayer !== null);
  }

  /** New events were merged into the stream (`added` sorted). */
  eventsAdded(added: readonly RecordedEvent[]) {
    if (!this.#usable || added.length === 0) return;
    if (added.some(unclonable)) {
      this.destroy();
      return this.onDone();
    }
    const applied = this.events[this.#next - 1]?.timestamp ?? -Infinity;
    // Inserted behind what was played: start over (a rare out-of-order batch).
    if (this.#replayer && added[0].timestamp <= applied) return this.#restart();
    for (const event of added) this.#replayer?.addEvent(event);
    this.#schedule();
  }

  destroy() {
    if (!this.#usable) return;
    this.#usable = false;
    this.#cancelTask();
    this.#replayer?.destroy();
    this.#replayer = null;
    this.#host.remove();
    this.keyframes.clear();
  }

  #restart() {
    this.#replayer?.destroy();
    this.#replayer = null;
    this.#next = 0;
    this.#work = 0;
    this.keyframes.clear();
    this.#schedule();
  }

  #schedule() {
    this.#cancelTask();
    if (this.#usable && this.#next < this.events.length) this.#cancelTask = later(this.#step);
  }

  #step = () => {
    if (!this.#usable) return;
    if (this.held()) return this.#schedule();
    if (!this.#replayer && !this.#start()) return;
    const replayer = this.#replayer!;
    const end = stepEnd(this.events, this.#next, this.#size);
    const last = this.events[end];
    const started = performance.now();
    replayer.pause(last.timestamp + 1 - this.events[0].timestamp);
    const took = performance.now() - started;
    this.#next = end + 1;
    this.#size = nextStepSize(this.#size, took);
    this.#work += took;
    if (keyframeDue(last.type, this.#work) || this.#next >= this.events.length) {
      const keyframe = captureKeyframe(replayer);
      if (keyframe) this.keyframes.add(keyframe);
      this.#work = 0;
    }
    if (this.done) this.onDone();
    else this.#schedule();
  };

  #start(): boolean {
    if (this.events.some(unclonable)) {
      this.destroy();
      this.onDone();
      return false;
    }
    const replayer = new Replayer([...this.events], {
      root: this.#host,
      skipInactive: false,
      showWarning: false,
      mouseTail: false,
      triggerFocus: false,
      // Steps are short: applying their few events to the DOM directly is cheaper than rrweb
      // building a virtual copy of the whole document and diffing it back on every step.
      useVirtualDom: false,
    });
    replayer.disableInteract();
    if (!hasKeyframeSupport(replayer)) {
      replayer.destroy();
      this.destroy();
      this.onDone();
      return false;
    }
    this.#replayer = replayer;
    return true;
  }
}

function unclonable(event: RecordedEvent): boolean {
  return event.type === EventType.IncrementalSnapshot &&
    UNCLONABLE_SOURCES.has((event.data as { source?: number })?.source!);
}

// Background-priority tasks where the browser has them (they yield to input and rendering);
// idle callbacks starve on a busy page, so a timer is the fallback.
const tasks = globalThis as unknown as {
  scheduler?: {
    postTask(
      callback: () => void,
      options: { priority: string; signal: AbortSignal },
    ): Promise<void>;
  };
};

function later(callback: () => void): () => void {
  if (tasks.scheduler?.postTask) {
    const controller = new AbortController();
    tasks.scheduler.postTask(callback, { priority: "background", signal: controller.signal })
      .catch(() => {});
    return () => controller.abort();
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
}
