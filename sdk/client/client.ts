// The recording client: the public methods, wiring the recorder, navigation markers, the gate, the
// flusher and the page lifecycle together by its one mode (sdk/client/client_mode.ts).

import { cutText, PATHNAME_CHARS } from "@/core/ingest/limits.ts";
import type { RecordingSettings } from "@/core/projects/recording_limits.ts";
import { PAGE_CLOSED_TAG } from "@/recording/events.ts";
import { CaptureGate } from "@/sdk/control/capture_gate.ts";
import { browserLocalStorage, fetchSettings, lastKnown, narrow } from "@/sdk/control/settings.ts";
import { Flusher } from "@/sdk/send/flusher.ts";
import { logError } from "@/sdk/log.ts";
import { identityOf, pageMetadata, urlPayload } from "@/sdk/capture/metadata.ts";
import { PageTracker, watchHistory } from "@/sdk/capture/navigation.ts";
import type { ClientInput, ClientMode } from "./client_mode.ts";
import { consented, initialMode, transition } from "./client_mode.ts";
import { PageCapture } from "./page_capture.ts";
import { PageJournal } from "@/sdk/journal/page_journal.ts";
import { watchLifecycle } from "./page_lifecycle.ts";
import { addCustomEvent, customEvent, takeFullSnapshot } from "@/sdk/capture/recorder.ts";
import { LazyGzip } from "@/sdk/lazy_modules.ts";
import { browserSessionStorage, getSessionId, newSessionId } from "@/sdk/session_id.ts";
import { browserTransportDeps, Transport } from "@/sdk/send/transport.ts";
import type { HeldSegment } from "@/sdk/control/trigger_buffer.ts";
import type { RecorderState, ResolvedOptions, Traits, UserIdentity } from "@/sdk/types.ts";

const RESUME_DELAY_MS = 100; // after a single-page navigation out of a blocked page
/** A page's first batch goes this soon after recording starts, so a new session shows at once. */
export const FIRST_FLUSH_MS = 5_000;

/** A Playhead recorder bound to one page. Create it with `Playhead.init()`. */
export class PlayheadClient {
  #mode: ClientMode;
  #identity: UserIdentity | undefined;
  #sessionId: string;
  #flusher: Flusher;
  #transport: Transport;
  #pages: PageTracker;
  /** The page the session started on, reported as `metadata.url`. */
  #startUrl: string | null = null;
  #gate: CaptureGate; // what becomes of each event (sdk/control/capture_gate.ts)
  #local = browserLocalStorage();
  #project: RecordingSettings | null = null; // once read; null for a key the service refused
  #settled: Promise<void>; // the settings read and applied
  #journal: PageJournal; // what this page leaves for the next ones of its key (journal, parking)
  #firstFlush: ReturnType<typeof setTimeout> | undefined;
  #gzip: LazyGzip; // loaded once this session sends
  #onPage: PageCapture; // rrweb, the signals and the early console on this page

  constructor(readonly options: ResolvedOptions) {
    this.#journal = new PageJournal(options, browserSessionStorage(options.apiKey));
    this.#pages = new PageTracker(this.#journal.storage);
    this.#onPage = new PageCapture(options, {
      route: (e) => this.#gate.route(e),
      push: (tag, payload) => this.#push(tag, payload),
      snapshot: () => this.#extraSnapshot(),
    });
    this.#transport = new Transport(options, browserTransportDeps());
    this.#gzip = new LazyGzip(options.endpoint);
    this.#sessionId = getSessionId(this.#journal.storage);
    this.#mode = initialMode(options.hold);
    this.#flusher = this.#newFlusher(true); // held: nothing goes before the settings are read
    this.#gate = this.#newGate();
    const kept = this.#journal.recover(this.#transport, this.#sessionId); // earlier pages' buffer
    this.#settled = Promise.all([fetchSettings(options, this.#local), kept])
      .then(([project, k]) => this.#applySettings(project, k));
    watchHistory((url) => this.#onNavigate(url));
    setInterval(() => void this.#flusher.flush(), options.flushInterval);
    this.#journal.open(() => this.#writeJournal(false));
    watchLifecycle({
      leave: () => {
        // Leaving before the settings came: the last known ones decide (sdk/README.md).
        const pending = this.#mode.gate === "pending";
        if (pending) this.#applySettings(lastKnown(this.#local, options.apiKey));
        // The page's end marker: a session whose latest event it is grows no more (the replay's
        // Live badge, core/sessions/live.ts) until another of its pages sends.
        this.#to("leave");
        this.#closed();
        this.#flusher.hide(true);
        this.#journal.unlock();
      },
      back: () => {
        this.#to("back");
        this.#journal.lock();
        this.#journal.unpark(this.#flusher, this.#sessionId); // take the parked events back
      },
      hidden: () => {
        // Recorded after the end marker (web vitals report at the visibilitychange that follows a
        // navigation's pagehide): the marker goes again, so it stays the page's last event.
        if (this.#mode.left && this.#flusher.buffer.length > 0) this.#closed();
        this.#flusher.hide(false);
      },
    });
    this.#journal.unpark(this.#flusher, this.#sessionId);
    if (options.autoStart) this.start();
  }

  /** `idle` (not started or cancelled), `recording`, or `paused`. */
  get state(): RecorderState {
    return this.#mode.run;
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
    if (this.#mode.run === "recording") return;
    this.#startUrl ??= this.#gate.allows(location.href) // a blocked page's without its query
      ? location.href
      : location.origin + location.pathname;
    this.#to("start");
    this.#capture(true);
  }

  /** Starts rrweb and the signals on this page, as the state, the gate and the URL rules allow. */
  #capture(on: boolean): void {
    if (!on) return this.#onPage.halt();
    const { run, gate } = this.#mode;
    if (run !== "recording" || this.#onPage.running || gate === "off") return;
    if (!this.#gate.allows(location.href)) return this.#block();
    if (this.#pages.changedTo(location.href)) this.#push("service:url", urlPayload(location.href));
    this.#onPage.start();
    this.#flushSoon();
  }

  /** The page's end marker, for a session started (a cancelled one has nothing to end). */
  #closed = () => this.#mode.run !== "idle" && this.#push(PAGE_CLOSED_TAG, {});

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
    this.#onPage.halt();
    this.#onPage.dropEarlyConsole();
  }

  /** A full snapshot `SnapshotPacer` or the trigger buffer asked for, if still recording. */
  #extraSnapshot = () => this.#mode.run === "recording" && this.#onPage.snapshot();

  /** Stops recording until `resume()`; buffered events are still sent. */
  pause(): void {
    if (this.#mode.run !== "recording") return;
    this.#to("pause");
    this.#onPage.halt();
  }

  /** Resumes a paused recording with a fresh full snapshot (after a `service:url` if the page changed). */
  resume(): void {
    if (this.#mode.run === "paused") this.start();
  }

  /**
   * Stops recording, drops every buffered event and asks the service to delete the session.
   * A later `start()` records a new session.
   */
  async cancel(): Promise<void> {
    this.pause();
    this.#to("cancel");
    const flusher = this.#flusher;
    this.#journal.forget(this.#sessionId);
    this.#pages.reset();
    this.#startUrl = null;
    this.#sessionId = newSessionId(this.#journal.storage);
    this.#flusher = this.#newFlusher(true);
    this.#gate.dispose();
    this.#gate = this.#newGate();
    if (this.#project) {
      this.#to("settings");
      this.#gate.apply(narrow(this.#project, this.options));
    }
    await flusher.cancel();
  }

  /** Sends the held buffer and stops holding. */
  release(): Promise<void> {
    return this.#to("release").send === "sending" ? this.#flusher.release() : Promise.resolve();
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
    const identity = identityOf(userId, traits);
    if (!identity) return;
    this.#identity = identity;
    if (this.#mode.run !== "idle") this.#push("service:identity", this.#identity);
    this.#flusher.resendMetadata();
  }

  #onNavigate(url: string): void {
    if (this.#mode.run !== "recording") return;
    if (!this.#gate.allows(url)) {
      if (this.#onPage.running) this.#block();
      return;
    }
    if (!this.#onPage.running) {
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
    const running = this.#mode.run === "recording" && this.#onPage.running;
    if (running && addCustomEvent(tag, payload)) return;
    this.#gate.route(customEvent(tag, payload));
  }

  /** Moves the mode by `input` (sdk/client/client_mode.ts); returns the new mode. */
  #to = (input: ClientInput): ClientMode => this.#mode = transition(this.#mode, input);

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
      gzipSync: () => this.#gzip.get(),
      park: (batches) => this.#journal.park(sessionId, batches),
      sealed: () => this.#writeJournal(true),
    }, this.#transport);
  }

  #newGate(): CaptureGate {
    const initial = narrow(lastKnown(this.#local, this.options.apiKey), this.options);
    return new CaptureGate(this.#sessionId, this.#journal.storage, {
      adopt: (events) => this.#flusher.adopt(events),
      number: (events) => this.#flusher.number(events),
      send: (event) => this.#flusher.add(event),
      snapshot: () => this.#extraSnapshot(),
      capture: (on) => this.#capture(this.#to(on ? "captureOn" : "captureOff").settings && on),
      sendable: (now) => {
        this.#gzip.load();
        if (this.#to("sendable").send === "sending") void this.#flusher.release(now);
      },
    }, initial);
  }

  /** The settings read (or fallen back to): a page they block drops what it held, then decides. */
  #applySettings(project: RecordingSettings | null, kept: HeldSegment[] = []): void {
    if (!project) {
      logError("the service does not know this apiKey: nothing is recorded");
      this.#gate.refuse();
      this.#to("refused");
      return this.#onPage.halt();
    }
    this.#project = project;
    this.#to("settings");
    // Settings that block this page drop what it held (not the earlier pages' buffer, `kept`).
    const blocked = this.#gate.apply(narrow(project, this.options), location.href, kept);
    if (blocked && this.#onPage.running) {
      this.#startUrl = location.origin + location.pathname;
      this.#block();
    }
  }

  #writeJournal(now: boolean): void {
    this.#journal.write(this.#flusher, now, {
      sessionId: this.#sessionId,
      metadata: this.#flusher.config.metadata, // with why, and from which page, it records
      kept: (page) => consented(this.#mode) ? this.#gate.keep(page) : [], // not before consent
      keptRevision: this.#gate.keptRevision,
    });
  }
}
