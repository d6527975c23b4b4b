// The recording client: its state machine (idle, recording, paused) and the public methods,
// wiring the recorder, navigation markers, the flusher and the page lifecycle together.

import type { EventType } from "@rrweb/types";
import { cutText, PATHNAME_CHARS } from "@/core/ingest/limits.ts";
import type { RecordingSettings } from "@/core/projects/recording_limits.ts";
import { CaptureGate } from "./capture_gate.ts";
import { browserLocalStorage, fetchSettings, lastKnown, narrow } from "./capture_settings.ts";
import { EarlyConsole } from "./early_console.ts";
import { jsonArray } from "./encoded_event.ts";
import { Flusher } from "./flusher.ts";
import { deleteEntry, JOURNAL_EVERY_MS, JOURNALING, saveEntry, withLock } from "./journal.ts";
import { clearPending, savePending, takePending } from "./keepalive.ts";
import { logError } from "./log.ts";
import { boundedTraits, pageMetadata, urlPayload } from "./metadata.ts";
import { PageTracker, watchHistory } from "./navigation.ts";
import { addCustomEvent, startRecorder, takeFullSnapshot } from "./recorder.ts";
import { loadLazy } from "./lazy_modules.ts";
import { recoverOrphans } from "./recovery.ts";
import { watchSignals } from "./signals.ts";
import { SnapshotPacer } from "./snapshot_pacer.ts";
import { browserSessionStorage, getSessionId, newSessionId, uuidV4 } from "./session_id.ts";
import { browserTransportDeps, Transport } from "./transport.ts";
import type {
  RecordedEvent,
  RecorderState,
  ResolvedOptions,
  Traits,
  UserIdentity,
} from "./types.ts";

// rrweb's event numbers, checked against @rrweb/types at compile time; a type-only import, so
// the enum objects stay out of the bundle.
const CUSTOM_EVENT: EventType.Custom = 5;
const RESUME_DELAY_MS = 100; // after a single-page navigation out of a blocked page
/** A page's first batch goes this soon after recording starts, so a new session shows at once. */
export const FIRST_FLUSH_MS = 5_000;

/** A Playhead recorder bound to one page. Create it with `Playhead.init()`. */
export class PlayheadClient {
  #state: RecorderState = "idle";
  #stopRecorder: (() => void) | null = null;
  #stopSignals: (() => void) | null = null;
  #identity: UserIdentity | undefined;
  #storage = browserSessionStorage();
  #sessionId: string;
  #flusher: Flusher;
  #transport: Transport;
  #pages = new PageTracker(this.#storage);
  /** The page the session started on, reported as `metadata.url`. */
  #startUrl: string | null = null;
  /** Console calls before the first full snapshot (sdk/early_console.ts). */
  #earlyConsole: EarlyConsole | null;
  #gate: CaptureGate; // what becomes of each event (sdk/capture_gate.ts)
  #local = browserLocalStorage();
  #project: RecordingSettings | null = null; // once read; null for a key the service refused
  #consentHeld: boolean; // `hold: true` until `release()`
  #sendable = false; // the gate let this session send
  #settled: Promise<void>; // the settings read and applied
  /** This page's journal entry (sdk/journal.ts) and lock; the flusher revision last written. */
  #page = uuidV4();
  #journaled = -1;
  #unlock: (() => void) | null = null;
  #firstFlush: ReturnType<typeof setTimeout> | undefined;
  /** The unload-time gzip, loaded once this session sends (sdk/lazy/deflate.ts). */
  #gzipSync: ((bytes: Uint8Array) => Uint8Array) | null = null;
  #deflateAsked = false;

  constructor(readonly options: ResolvedOptions) {
    this.#earlyConsole = options.recordConsole ? new EarlyConsole() : null;
    this.#transport = new Transport(options, browserTransportDeps());
    this.#sessionId = getSessionId(this.#storage);
    this.#consentHeld = options.hold;
    this.#flusher = this.#newFlusher(true); // held: nothing goes before the settings are read
    this.#gate = this.#newGate();
    this.#settled = fetchSettings(options, this.#local).then((p) => this.#applySettings(p));
    watchHistory((url) => this.#onNavigate(url));
    setInterval(() => void this.#flusher.flush(), options.flushInterval);
    setInterval(() => this.#journal(false), JOURNAL_EVERY_MS);
    this.#lock();
    addEventListener("pagehide", () => {
      // Leaving before the settings came: the last known ones decide (sdk/README.md).
      if (this.#gate.mode === "pending") {
        this.#applySettings(lastKnown(this.#local, options.apiKey));
      }
      this.#flusher.hide(true);
      this.#unlock?.(); // a held lock keeps a page out of the bfcache
    });
    addEventListener("pageshow", (e) => {
      if (!e.persisted) return;
      this.#lock();
      this.#restorePending(); // back from the bfcache: take the parked events back
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.#flusher.hide(false);
    });
    this.#restorePending();
    void recoverOrphans(this.#transport, { page: this.#page, sessionId: this.#sessionId });
    if (options.autoStart) this.start();
  }

  /** `idle` (not started or cancelled), `recording`, or `paused`. */
  get state(): RecorderState {
    return this.#state;
  }

  /** The session id (a UUID shared by every page of this browser tab's session). */
  get sessionId(): string {
    return this.#sessionId;
  }

  /**
   * Starts recording; on a paused client it resumes. A page that continues the session on another
   * page than the last one recorded gets a `service:url` marker first.
   */
  start(): void {
    if (this.#state === "recording") return;
    this.#startUrl ??= this.#gate.allows(location.href) // a blocked page's without its query
      ? location.href
      : location.origin + location.pathname;
    this.#state = "recording";
    this.#capture(true);
  }

  /** Starts rrweb and the signals on this page, as the state, the gate and the URL rules allow. */
  #capture(on: boolean): void {
    if (!on) return this.#halt();
    if (this.#state !== "recording" || this.#stopRecorder || this.#gate.mode === "off") return;
    if (!this.#gate.allows(location.href)) return this.#block();
    if (this.#pages.changedTo(location.href)) this.#push("service:url", urlPayload(location.href));
    const pacer = new SnapshotPacer();
    this.#stopRecorder = startRecorder(
      this.options,
      (e) => {
        // Taken in a task of its own, not inside rrweb's emit.
        if (pacer.add(e, this.#gate.route(e))) setTimeout(() => this.#extraSnapshot(), 0);
      },
      this.#earlyConsole,
    );
    this.#earlyConsole = null;
    this.#stopSignals = watchSignals(this.options, (tag, payload) => this.#push(tag, payload));
    this.#flushSoon();
  }

  /** Flushes FIRST_FLUSH_MS from now (a page's first batch, or a new page's first snapshot). */
  #flushSoon(): void {
    clearTimeout(this.#firstFlush);
    this.#firstFlush = setTimeout(() => void this.#flusher.flush(), FIRST_FLUSH_MS);
  }

  /** A page the URL rules leave out: a `recording_paused` marker with its path, then nothing. */
  #block(): void {
    this.#pages.changedTo(location.href); // coming back is marked as a page change
    const pathname = cutText(location.pathname, PATHNAME_CHARS);
    this.#push("service:recording_paused", { pathname });
    this.#halt();
    this.#earlyConsole?.take(); // the blocked page's console stays its own
    this.#earlyConsole = null;
  }

  #halt(): void {
    this.#stopRecorder?.();
    this.#stopRecorder = null;
    this.#stopSignals?.();
    this.#stopSignals = null;
  }

  /** A full snapshot `SnapshotPacer` or the trigger buffer asked for, if still recording. */
  #extraSnapshot() {
    if (this.#state !== "recording" || !this.#stopRecorder) return;
    try {
      takeFullSnapshot();
    } catch {
      // rrweb has not started yet (it waits for DOMContentLoaded): its first snapshot comes.
    }
  }

  /** Stops recording until `resume()`; buffered events are still sent. */
  pause(): void {
    if (this.#state !== "recording") return;
    this.#state = "paused";
    this.#halt();
  }

  /** Resumes a paused recording with a fresh full snapshot (after a `service:url` if the page changed). */
  resume(): void {
    if (this.#state === "paused") this.start();
  }

  /**
   * Stops recording, drops every buffered event and asks the service to delete the session.
   * A later `start()` records a new session.
   */
  async cancel(): Promise<void> {
    this.pause();
    this.#state = "idle";
    const flusher = this.#flusher;
    clearPending(this.#storage, this.#sessionId);
    void deleteEntry(this.#page);
    this.#journaled = -1;
    this.#pages.reset();
    this.#startUrl = null;
    this.#sessionId = newSessionId(this.#storage);
    this.#flusher = this.#newFlusher(true);
    this.#gate.dispose();
    this.#sendable = false;
    this.#gate = this.#newGate();
    if (this.#project) this.#gate.apply(narrow(this.#project, this.options));
    await flusher.cancel();
  }

  /** Sends the held buffer and stops holding. */
  release(): Promise<void> {
    this.#consentHeld = false;
    return this.#sendable ? this.#flusher.release() : Promise.resolve();
  }

  /** Records a session sampling left out from its buffer, as a trigger would (reason `manual`). */
  trigger(): void {
    this.#gate.trigger("manual");
  }

  /** Sends everything buffered now instead of waiting for the flush interval (once decided). */
  async flush(): Promise<void> {
    await this.#settled;
    return this.#flusher.flush();
  }

  /**
   * Links the session to a user of your application. Before `start()` it travels in the first
   * batch's metadata; afterwards it is also recorded as a `service:identity` event.
   */
  identify(userId: string, traits: Traits = {}): void {
    if (typeof userId !== "string" || userId.trim() === "" || userId.length > 256) {
      logError("identify(userId, traits) needs a userId string of 1 to 256 characters");
      return;
    }
    if (typeof traits !== "object" || traits === null || Array.isArray(traits)) {
      logError("identify(userId, traits): traits must be a plain object");
      return;
    }
    this.#identity = { userId, traits: boundedTraits(traits) };
    if (this.#state !== "idle") this.#push("service:identity", this.#identity);
    this.#flusher.resendMetadata();
  }

  #onNavigate(url: string): void {
    if (this.#state !== "recording") return;
    if (!this.#gate.allows(url)) {
      if (this.#stopRecorder) this.#block();
      return;
    }
    if (!this.#stopRecorder) {
      // Back from a blocked page: an app changes the address before it renders the new page, so
      // the first snapshot waits for that, and the blocked page's content is never in it.
      setTimeout(() => this.#gate.allows(location.href) && this.#capture(true), RESUME_DELAY_MS);
      return;
    }
    if (!this.#pages.changedTo(url)) return;
    this.#push("service:url", urlPayload(url));
    takeFullSnapshot();
    this.#flushSoon();
  }

  /** Custom events go through rrweb while it runs, so they are ordered with its own events. */
  #push(tag: string, payload: unknown): void {
    // rrweb refuses custom events until it has started (at DOMContentLoaded): an identify() in
    // <head> right after init() goes to the buffer instead of throwing into the page.
    if (this.#state === "recording" && this.#stopRecorder && addCustomEvent(tag, payload)) return;
    const event: RecordedEvent = {
      type: CUSTOM_EVENT,
      data: { tag, payload },
      timestamp: Date.now(),
    };
    this.#gate.route(event);
  }

  #newFlusher(hold: boolean): Flusher {
    const sessionId = this.#sessionId;
    return new Flusher({
      sessionId,
      batchSize: this.options.batchSize,
      hold,
      metadata: () => ({
        ...pageMetadata(this.#startUrl ?? location.href, this.#identity),
        ...this.#gate.metadata(),
      }),
      gzipSync: () => this.#gzipSync,
      park: (batches) => savePending(this.#storage, sessionId, batches),
      sealed: () => this.#journal(true),
    }, this.#transport);
  }

  #newGate(): CaptureGate {
    const initial = narrow(lastKnown(this.#local, this.options.apiKey), this.options);
    return new CaptureGate(this.#sessionId, this.#storage, {
      adopt: (events) => this.#flusher.adopt(events),
      send: (event) => this.#flusher.add(event),
      snapshot: () => this.#extraSnapshot(),
      capture: (on) => this.#capture(on && this.#project !== null),
      sendable: (now) => {
        this.#sendable = true;
        this.#loadDeflate();
        if (!this.#consentHeld) void this.#flusher.release(now);
      },
    }, initial);
  }

  /** The settings read (or fallen back to): a page they block drops what it held, then decides. */
  #applySettings(project: RecordingSettings | null): void {
    if (!project) {
      logError("the service does not know this apiKey: nothing is recorded");
      this.#gate.dispose();
      this.#gate.mode = "off";
      return this.#halt();
    }
    this.#project = project;
    // Settings that block this page drop what it held (a previous page's leftovers are kept).
    if (this.#gate.apply(narrow(project, this.options), location.href) && this.#stopRecorder) {
      this.#startUrl = location.origin + location.pathname;
      this.#block();
    }
  }

  /** Holds this page's lock while it is open: a page whose lock is free is gone. */
  #lock(): void {
    void withLock(this.#page, true, () => new Promise<void>((done) => this.#unlock = done));
  }

  /**
   * Writes the unacknowledged events to the journal, when they changed or `now`. Never while
   * holding: held events may not leave the page before `release()` (consent).
   */
  #journal(now: boolean): void {
    const flusher = this.#flusher;
    if (!JOURNALING || flusher.held || (!now && flusher.revision === this.#journaled)) return;
    this.#journaled = flusher.revision;
    void saveEntry({
      page: this.#page,
      sessionId: this.#sessionId,
      savedAt: Date.now(),
      metadata: pageMetadata(this.#startUrl ?? location.href, this.#identity),
      batches: flusher.unacknowledged().map(jsonArray),
    });
  }

  #loadDeflate(): void {
    if (this.#deflateAsked) return;
    this.#deflateAsked = true;
    void loadLazy(this.options.endpoint, "deflate").then((m) => {
      if (m) this.#gzipSync = (bytes) => m.gzipSync(bytes);
    });
  }

  #restorePending(): void {
    const batches = takePending(this.#storage, this.#sessionId);
    if (batches.length === 0) return;
    this.#flusher.restore(batches);
    void this.#flusher.flush(); // the previous page's leftovers go first, right away
  }
}
