// Flush orchestration: buffer → requests of ≤ 500 events and ≤ 2 MiB → ingest, in order, one
// flush at a time; metadata on the first batch of a page and after identify; hold; unload; cancel.
// Each event is numbered as it comes in (this page's id and its place in the page's sequence), and
// every body says where its events sit, so the service stores each once however its copies
// (keepalive bodies, the journal, retries) were cut.

import { cutBatches, EventBuffer, FLUSH_BYTES } from "./buffer.ts";
import { type EncodedEvent, encodeEvent, ingestJson } from "./encoded_event.ts";
import { KEEPALIVE_BUDGET_BYTES, type PendingBatch, planKeepalive } from "./keepalive.ts";
import { logError, logWarn } from "@/sdk/log.ts";
import { MAX_BUFFERED_EVENTS } from "@/sdk/options.ts";
import { uuidV4 } from "@/sdk/session_id.ts";
import type { Transport } from "./transport.ts";
import type { RecordedEvent, SessionMetadata } from "@/sdk/types.ts";

const encoder = new TextEncoder();

export interface FlusherConfig {
  sessionId: string;
  batchSize: number;
  hold: boolean;
  metadata: () => SessionMetadata;
  /** The unload-time gzip once loaded (sdk/lazy/deflate.ts); until then bodies go uncompressed. */
  gzipSync: () => ((bytes: Uint8Array) => Uint8Array) | null;
  /** Receives what an unload could not send, for the next page of the session. */
  park: (batches: PendingBatch[]) => void;
  /** Told when batches are sealed (a flush cut them, an unload sent them): the journal's moment. */
  sealed?: () => void;
}

export class Flusher {
  readonly buffer = new EventBuffer(MAX_BUFFERED_EVENTS);
  /** This page's id for its events' numbers (a new session on the same page gets a new one). */
  readonly page = uuidV4();
  #seq = 0;
  /** Batches restored from a previous page; they go out first, exactly as they were. */
  #queued: PendingBatch[] = [];
  /**
   * The restored batches' event arrays. They never carry this page's metadata: the previous page
   * sent its own, and a restored batch reaching the service first must not open the session on
   * this page's URL.
   */
  #previousPage = new WeakSet<EncodedEvent[]>();
  /** Batches of the running flush not yet acknowledged; the first may be on the wire. */
  #outbox: EncodedEvent[][] = [];
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;
  #abort = new AbortController();
  #held: boolean;
  #cancelled = false;
  #metadataVersion = 1;
  #metadataSent = 0;
  #keepaliveInFlight = 0;
  /** Keepalive batches not answered yet (the page may be gone before they are). */
  #unconfirmed = new Set<EncodedEvent[]>();
  #revision = 0;

  constructor(readonly config: FlusherConfig, readonly transport: Transport) {
    this.#held = config.hold;
  }

  get held(): boolean {
    return this.#held;
  }

  /** Changes whenever what is unacknowledged changes. */
  get revision(): number {
    return this.#revision;
  }

  /**
   * Every event the service has not acknowledged, as the batches they were or will be sent in:
   * unanswered keepalive ones, the running flush's, restored ones, then the buffer cut as a flush
   * would cut it.
   */
  unacknowledged(): EncodedEvent[][] {
    return [
      ...this.#unconfirmed,
      ...this.#outbox,
      ...this.#queued.map((b) => b.events),
      ...cutBatches([...this.buffer.peek()]),
    ];
  }

  /** Buffers an event, JSON-encoded now so that no flush has to encode a whole buffer at once. */
  /** Buffers `event`; returns the size of its JSON (0 once cancelled). */
  add(event: RecordedEvent): number {
    if (this.#cancelled) return 0;
    const encoded = this.#number(encodeEvent(event));
    this.buffer.push(encoded);
    this.#revision++;
    const { length, bytes } = this.buffer;
    if (length >= this.config.batchSize || bytes >= FLUSH_BYTES) void this.flush();
    return encoded.bytes;
  }

  /** Puts batches left by a previous page in front of everything else. */
  restore(batches: PendingBatch[]): void {
    for (const b of batches) this.#previousPage.add(b.events);
    this.#queued.push(...batches.map((b) => ({ events: b.events, atomic: true })));
  }

  /**
   * Takes the events a recording decision releases (sdk/control/capture_gate.ts), this page's first: the
   * gate held at most the buffer's ceiling, so none is dropped here. Those numbered already keep
   * their numbers (an earlier page's, or this page's given as its buffer was journaled).
   */
  adopt(events: EncodedEvent[]): void {
    if (this.#cancelled) return;
    this.number(events);
    this.buffer.unshift(events);
    this.#revision++;
  }

  /** Numbers, in order, the events that have no number yet. */
  number(events: EncodedEvent[]): void {
    for (const e of events) if (e.page === undefined) this.#number(e);
  }

  /** Gives an event this page's next number; batches are cut into runs of them (cutBatches). */
  #number(event: EncodedEvent): EncodedEvent {
    event.page = this.page;
    event.seq = this.#seq++;
    return event;
  }

  /** Makes the next batch carry metadata again (after identify). */
  resendMetadata(): void {
    this.#metadataVersion++;
  }

  /** Stops holding and ships everything buffered (or leaves it to the usual cadence). */
  release(send = true): Promise<void> {
    this.#held = false;
    return send || this.buffer.length >= this.config.batchSize ? this.flush() : Promise.resolve();
  }

  /** Sends everything buffered; resolves when this flush (and any it queued) is over. */
  flush(): Promise<void> {
    if (this.#held || this.#cancelled) return Promise.resolve();
    if (this.#running) {
      // One follow-up flush picks up whatever arrived while this one was sending.
      this.#next ??= this.#running.then(() => {
        this.#next = null;
        return this.flush();
      });
      return this.#next;
    }
    if (this.buffer.length === 0 && this.#queued.length === 0) return Promise.resolve();
    this.#running = this.#run(this.#abort.signal).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #run(signal: AbortSignal): Promise<void> {
    this.#outbox = [...this.#queued.map((b) => b.events), ...cutBatches(this.buffer.takeAll())];
    this.#queued = [];
    this.config.sealed?.();
    while (this.#outbox.length > 0) {
      const version = this.#metadataVersion;
      const withMetadata = version !== this.#metadataSent &&
        !this.#previousPage.has(this.#outbox[0]);
      const body = this.#body(this.#outbox[0], withMetadata);
      const { outcome, status } = await this.transport.send(body, signal);
      if (signal.aborted || outcome === "aborted") return; // unload or cancel took the outbox over
      this.#revision++;
      if (outcome === "delivered") {
        if (withMetadata) this.#metadataSent = version;
        this.#outbox.shift();
      } else if (outcome === "rejected") {
        const dropped = this.#outbox.reduce((n, b) => n + b.length, 0);
        logError(`ingest rejected the batch (HTTP ${status}); ${dropped} events dropped`);
        this.#outbox = [];
        // 410: the session was erased (docs/decisions.md "Erasure"); nothing more is sent for it.
        if (status === 410) this.#cancelled = true;
      } else {
        logWarn(`ingest unreachable after retries; events kept for the next flush`);
        this.buffer.unshift(this.#outbox.flat());
        this.#outbox = [];
      }
    }
  }

  #body(events: EncodedEvent[], withMetadata: boolean): string[] {
    const metadata = withMetadata ? this.config.metadata() : undefined;
    return ingestJson(this.config.sessionId, events, metadata);
  }

  /**
   * Page hide: keepalive-send what fits in the budget. When the page is unloading, the running
   * flush is abandoned and its unacknowledged batches go too (the service ignores an exact
   * duplicate), and what does not fit is parked; a page that stays alive keeps it buffered.
   */
  hide(unloading: boolean): void {
    if (this.#cancelled) return;
    let batches: PendingBatch[];
    if (unloading) {
      this.#abort.abort();
      this.#abort = new AbortController();
      batches = [
        ...this.#outbox.map((events, i) => ({ events, atomic: i === 0 })),
        ...this.#queued,
        ...cutBatches(this.buffer.takeAll()).map((events) => ({ events })),
      ];
      this.#outbox = [];
      this.#queued = [];
    } else {
      batches = cutBatches(this.buffer.takeAll()).map((events) => ({ events }));
    }
    let rest = batches;
    if (!this.#held) {
      const budget = KEEPALIVE_BUDGET_BYTES - this.#keepaliveInFlight;
      const withMetadata = this.#metadataVersion !== this.#metadataSent;
      // Restored batches lead, atomic and whole, so this page's first body comes right after them.
      const ownFirst = batches.filter((b) => b.events.length > 0).findIndex((b) =>
        !this.#previousPage.has(b.events)
      );
      const serialize = (events: EncodedEvent[], index: number) =>
        encoder.encode(this.#body(events, withMetadata && index === ownFirst).join(""));
      const gzip = this.config.gzipSync();
      const plan = planKeepalive(batches, serialize, gzip ?? ((bytes) => bytes), budget);
      plan.bodies.forEach((body, i) => this.#sendKeepalive(body, gzip !== null, plan.sent[i]));
      rest = plan.rest;
    }
    if (unloading) this.config.park(rest);
    else this.buffer.unshift(rest.flatMap((b) => b.events));
    this.#revision++;
    this.config.sealed?.();
  }

  #sendKeepalive(body: Uint8Array, gzipped: boolean, events: EncodedEvent[]): void {
    this.#keepaliveInFlight += body.length;
    this.#unconfirmed.add(events);
    void this.transport.sendKeepalive(body, gzipped).then((status) => {
      this.#keepaliveInFlight -= body.length;
      // Answered for good (stored, or refused as a 4xx other than 408): no page sends it again.
      const settled = (status >= 200 && status < 300) || (status >= 400 && status < 500);
      if (settled && status !== 408) this.#unconfirmed.delete(events);
      this.#revision++;
      if (status >= 400 && status < 500) {
        logError(`ingest rejected the unload batch (HTTP ${status})`);
      }
    });
  }

  /** Drops everything, lets a request on the wire settle, then asks the service to delete it. */
  async cancel(): Promise<void> {
    this.#cancelled = true;
    this.#abort.abort();
    this.buffer.clear();
    this.#queued = [];
    this.#unconfirmed.clear();
    await this.#running;
    this.#outbox = [];
    this.buffer.clear();
    const status = await this.transport.cancel(this.config.sessionId);
    if (status < 200 || status >= 300) {
      logWarn(`cancel request failed (HTTP ${status || "network"})`);
    }
  }
}
