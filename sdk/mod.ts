// Playhead capture SDK entry point: `Playhead.init({ apiKey, endpoint })` records the page and
// ships it to the service. Built as a classic script (global `Playhead`) and an ES module.

import { PlayheadClient } from "./client/client.ts";
import { logError, logWarn } from "./log.ts";
import { resolveOptions } from "./options.ts";
import type { PlayheadOptions, RecorderState, Traits } from "./types.ts";

export type {
  PlayheadOptions,
  RecordedEvent,
  RecorderState,
  SessionMetadata,
  Traits,
  UserIdentity,
} from "./types.ts";
export { DEFAULT_OPTIONS } from "./options.ts";

/** What `init()` returns: the page's recorder, or an inert stand-in when options were invalid. */
export interface Playhead {
  /** `idle`, `recording` or `paused`. */
  readonly state: RecorderState;
  /** The session id (UUID), stable across the pages of one browser tab's session. */
  readonly sessionId: string | null;
  /** Starts recording (done by `init()` unless `autoStart: false`). */
  start(): void;
  /** Stops recording until `resume()`. */
  pause(): void;
  /** Resumes a paused recording. */
  resume(): void;
  /** Stops, drops everything buffered and asks the service to delete the session. */
  cancel(): Promise<void>;
  /** Ships the buffer held by `hold: true` and stops holding. */
  release(): Promise<void>;
  /** Sends buffered events now. */
  flush(): Promise<void>;
  /** Links the session to your user; traits are any JSON object. */
  identify(userId: string, traits?: Traits): void;
  /** Records a session sampling left out, from its buffer (reason `manual`). */
  trigger(): void;
}

let current: PlayheadClient | null = null;

/**
 * Creates the page's recorder (one per page). Invalid options are reported with `console.error`
 * and nothing is recorded; calling `init()` again returns the recorder that already exists.
 */
export function init(options: PlayheadOptions): Playhead {
  if (current) return current;
  const resolved = resolveOptions(options);
  if (!resolved.ok) {
    logError(`invalid options, not recording:\n  - ${resolved.errors.join("\n  - ")}`);
    return inert();
  }
  current = new PlayheadClient(resolved.options);
  return current;
}

/** The recorder created by `init()`, if any. */
export function instance(): Playhead | null {
  return current;
}

// The recorder's methods on the module (the `Playhead` global), so a page can call
// `Playhead.identify(...)` anywhere without keeping what `init()` returned.

/** Links the session to your user; traits are any JSON object. */
export function identify(userId: string, traits?: Traits): void {
  recorder("identify")?.identify(userId, traits);
}
/** Starts recording (done by `init()` unless `autoStart: false`). */
export function start(): void {
  recorder("start")?.start();
}
/** Stops recording until `resume()`. */
export function pause(): void {
  recorder("pause")?.pause();
}
/** Resumes a paused recording with a fresh snapshot. */
export function resume(): void {
  recorder("resume")?.resume();
}
/** Stops, drops everything buffered and asks the service to delete the session. */
export function cancel(): Promise<void> {
  return recorder("cancel")?.cancel() ?? Promise.resolve();
}
/** Ships the buffer held by `hold: true` and stops holding. */
export function release(): Promise<void> {
  return recorder("release")?.release() ?? Promise.resolve();
}
/** Records a session sampling left out, from its buffer (reason `manual`). */
export function trigger(): void {
  recorder("trigger")?.trigger();
}
/** Sends buffered events now. */
export function flush(): Promise<void> {
  return recorder("flush")?.flush() ?? Promise.resolve();
}

function recorder(method: string): Playhead | null {
  if (!current) {
    logWarn(`${method}() before init(): call Playhead.init({ apiKey, endpoint }) first`);
  }
  return current;
}

function inert(): Playhead {
  const refuse = () => logError("not recording: init() was called with invalid options");
  return {
    state: "idle",
    sessionId: null,
    start: refuse,
    pause: () => {},
    resume: refuse,
    cancel: () => Promise.resolve(),
    release: () => Promise.resolve(),
    flush: () => Promise.resolve(),
    identify: () => {},
    trigger: () => {},
  };
}
