// What happens to each recorded event of this page, by the project's settings and the session's
// decision (docs/decisions.md "Capture control"): `pending` until the settings are read (held in
// memory, nothing sent), then `record` (to the flusher, sent once the session is old enough),
// `buffer` (held until a trigger records it, sdk/control/trigger_buffer.ts) or `off` (not captured at all).
// A recorded session's decision is kept in sessionStorage, so its later pages record from their
// start whatever the settings say then. A session buffering carries its buffer from page to page
// (`keep()`, the journal, `apply()`'s `kept`).

import { EventType } from "@rrweb/types";
import {
  PRE_TRIGGER_MS,
  type RecordingReason,
  type RecordingTrigger,
} from "@/core/projects/recording_limits.ts";
import type { CaptureSettings } from "./settings.ts";
import { type EncodedEvent, encodeEvent } from "@/sdk/send/encoded_event.ts";
import { isSampled } from "./sampling.ts";
import { type KeyValueStorage, safeGet } from "@/sdk/session_id.ts";
import { type HeldSegment, type PageStart, TriggerBuffer } from "./trigger_buffer.ts";
import { type PathRule, pathRule } from "@/sdk/capture/url_rules.ts";
import type { RecordedEvent, SessionMetadata } from "@/sdk/types.ts";

export type CaptureMode = "pending" | "record" | "buffer" | "off";

export interface GateHost {
  /** Takes the events a decision records, before anything else of the page. */
  adopt(events: EncodedEvent[]): void;
  /** Numbers the events of this page that have no number yet, in its sequence. */
  number(events: EncodedEvent[]): void;
  /** Sends one event of a recorded session; returns its JSON size. */
  send(event: RecordedEvent): number;
  /** Takes a full snapshot, which opens a buffer segment (when capturing). */
  snapshot(): void;
  /** Stops capturing this page (`off`), or starts again (a manual trigger while off). */
  capture(on: boolean): void;
  /**
   * Sending may start: the session is recorded and older than the minimum duration; `now` when
   * what was held should go at once (it waited for the minimum, or a trigger recorded it).
   */
  sendable(now: boolean): void;
}

interface Decision {
  s: string;
  r: RecordingReason;
  t?: number;
}

const DECISION_KEY = "playhead:recorded";
const STARTED_KEY = "playhead:started";
const CONSOLE_PLUGIN = "rrweb/console@1";

export class CaptureGate {
  mode: CaptureMode = "pending";
  #settings: CaptureSettings;
  #rule: PathRule;
  #buffer = new TriggerBuffer();
  #decision: Decision | null;
  #started: number;
  #manualAt: number | null = null;
  #startPage: PageStart | undefined; // the earlier page a triggered recording starts on
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly sessionId: string,
    readonly storage: KeyValueStorage | null,
    readonly host: GateHost,
    initial: CaptureSettings,
  ) {
    this.#settings = initial;
    this.#rule = pathRule(initial.urlBlock, initial.urlAllow);
    const decision = read<Decision>(storage, DECISION_KEY);
    this.#decision = decision?.s === sessionId ? decision : null;
    const started = read<{ s: string; t: number }>(storage, STARTED_KEY);
    this.#started = started?.s === sessionId ? started.t : Date.now();
    if (started?.s !== sessionId) write(storage, STARTED_KEY, { s: sessionId, t: this.#started });
  }

  /** Whether the page at `url` may be recorded under the settings in force. */
  allows(url: string): boolean {
    return this.#rule(new URL(url).pathname);
  }

  /**
   * The metadata fields of a triggered session (a sampled one is the service's default), and the
   * page its recording starts on when that is an earlier one.
   */
  metadata(): Partial<
    Pick<SessionMetadata, "recordingReason" | "triggeredAt" | "url" | "referrer">
  > {
    const d = this.#decision;
    const why = d && d.r !== "sampled" ? { recordingReason: d.r, triggeredAt: d.t } : {};
    return { ...why, ...this.#startPage };
  }

  /** What the buffer carries to the session's next page from `page` (nothing unless buffering). */
  keep({ url, referrer }: PageStart): HeldSegment[] {
    if (this.mode !== "buffer") return [];
    return this.#buffer.keep({ url, referrer }, (e) => this.host.number(e));
  }

  /** Changes whenever what `keep()` gives may have. */
  get keptRevision(): number {
    return this.#buffer.revision;
  }

  /** Routes one recorded event; returns its JSON size (0 when dropped). */
  route(event: RecordedEvent): number {
    if (this.mode === "off") return 0;
    if (this.mode === "record") return this.host.send(event);
    const encoded = encodeEvent(event);
    this.#buffer.add(encoded, event.type, event.timestamp);
    if (this.#buffer.overflowed()) setTimeout(() => this.host.snapshot(), 0);
    if (this.mode === "buffer") {
      this.#buffer.prune(event.timestamp);
      const kind = triggerOf(event);
      if (kind && this.#settings.triggers.includes(kind)) this.trigger(kind, event.timestamp);
    }
    return encoded.bytes;
  }

  /**
   * Applies the settings read from the service (or the fallback) and decides, once. True when they
   * block the page at `url` that the earlier ones allowed: what it held is dropped, unsent. What
   * the session's earlier pages `kept` goes before this page's buffer, unless the session is
   * recorded already (they sent theirs) or not captured.
   */
  apply(settings: CaptureSettings, url?: string, kept: HeldSegment[] = []): boolean {
    const allowed = url !== undefined && this.allows(url);
    this.#settings = settings;
    this.#rule = pathRule(settings.urlBlock, settings.urlAllow);
    const blocked = allowed && !this.allows(url);
    if (blocked) this.#buffer.clear();
    if (!this.#decision && this.mode !== "off") {
      this.#buffer.carry(kept, Date.now() - settings.bufferMs - PRE_TRIGGER_MS);
    }
    if (this.mode === "pending") this.#choose(settings);
    return blocked;
  }

  #choose(settings: CaptureSettings): void {
    if (!this.#decision && isSampled(this.sessionId, settings.sampleRate)) {
      this.#decide({ s: this.sessionId, r: "sampled" });
    }
    if (this.#decision) {
      this.#startPage = this.#buffer.startPage();
      return this.#record(this.#buffer.takeAll());
    }
    if (this.#manualAt !== null || settings.triggers.length > 0) {
      this.mode = "buffer";
      this.#buffer.prune(Date.now());
      // A snapshot at least every bufferMs (a second early, for timer lag) bounds how far before
      // its trigger a recording can start.
      this.#ticker = setInterval(() => {
        if (Date.now() - this.#buffer.newestStart >= settings.bufferMs - 1_000) {
          this.host.snapshot();
        }
      }, 1_000);
      if (this.#manualAt !== null) this.trigger("manual", this.#manualAt);
      return;
    }
    this.mode = "off";
    this.#buffer.clear();
    this.host.capture(false);
  }

  /** Records the session from its buffer, as `reason` at `at` (no-op once recorded). */
  trigger(reason: Exclude<RecordingReason, "sampled">, at = Date.now()): void {
    if (this.mode === "record") return;
    if (this.mode === "pending") {
      this.#manualAt ??= at;
      return;
    }
    const wasOff = this.mode === "off";
    this.#decide({ s: this.sessionId, r: reason, t: at });
    this.#startPage = this.#buffer.startPage(at);
    this.#record(this.#buffer.take(at), true);
    if (wasOff) this.host.capture(true);
  }

  /** Stops the gate's timers (the session was cancelled). */
  dispose(): void {
    clearTimeout(this.#timer);
    clearInterval(this.#ticker);
    this.#buffer.clear();
  }

  /** Captures nothing more: the service does not know the key. */
  refuse(): void {
    this.dispose();
    this.mode = "off";
  }

  #decide(decision: Decision): void {
    this.#decision = decision;
    write(this.storage, DECISION_KEY, decision);
  }

  #record(events: EncodedEvent[], triggered = false): void {
    this.mode = "record";
    clearInterval(this.#ticker);
    this.host.adopt(events);
    const wait = this.#started + this.#settings.minDurationMs - Date.now();
    if (wait <= 0) this.host.sendable(triggered);
    else this.#timer = setTimeout(() => this.host.sendable(true), wait);
  }
}

/** The trigger an event is, if any: a console error (uncaught ones too), a rage or dead click. */
export function triggerOf(event: RecordedEvent): RecordingTrigger | null {
  const data = event.data as { plugin?: unknown; payload?: { level?: unknown }; tag?: unknown };
  if (event.type === EventType.Plugin) {
    return data?.plugin === CONSOLE_PLUGIN && data.payload?.level === "error" ? "error" : null;
  }
  if (event.type !== EventType.Custom) return null;
  if (data?.tag === "service:rage_click") return "rage_click";
  return data?.tag === "service:dead_click" ? "dead_click" : null;
}

function read<T>(storage: KeyValueStorage | null, key: string): T | null {
  try {
    return JSON.parse(safeGet(storage, key) ?? "null") as T | null;
  } catch {
    return null;
  }
}

function write(storage: KeyValueStorage | null, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Denied storage: the decision still holds for this page.
  }
}
