// The Prometheus metrics of one app (GET /metrics, README "Metrics"): one registry per app, so the
// many apps of a test run never add to each other's counts. Every label value comes from a small
// set fixed here (a status, a request class, a route pattern, a store method), never from a
// request: no session id, key, email or URL can become a label.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { CleanupResult } from "./cleanup.ts";
import type { StoreOutcome } from "@/db/object_store.ts";

/** Methods a route label is kept for; any other is counted as `other`. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The name of what an ingest answer's status means (docs/decisions.md "Common API rules"). */
const INGEST_OUTCOMES: Record<number, string> = {
  204: "stored",
  400: "validation",
  401: "auth",
  408: "request_timeout",
  413: "payload_too_large",
  415: "unsupported",
  429: "rate_limited",
  503: "unavailable",
};

/** A value read when Prometheus scrapes: labels (if any) and the value. */
export type Reading = Array<[Record<string, string>, number]>;

export class Metrics {
  readonly registry = new Registry();
  readonly #ingestRequests = this.#counter(
    "playhead_ingest_requests_total",
    "Ingest requests answered, by status and what it means (stored, validation, auth, …).",
    ["status", "outcome"],
  );
  readonly #receivedBytes = this.#counter(
    "playhead_ingest_received_bytes_total",
    "Ingest body bytes read, as sent (gzip when the SDK compressed them).",
  );
  readonly #storedBytes = this.#counter(
    "playhead_ingest_stored_bytes_total",
    "Bytes of events stored (gzip), batches answered as duplicates left out.",
  );
  readonly #events = this.#counter(
    "playhead_ingest_events_total",
    "Recorded events stored, batches answered as duplicates left out.",
  );
  readonly #droppedRequests = this.#counter(
    "playhead_ingest_network_requests_dropped_total",
    "Recorded network requests left out of their batch as malformed (the batch is kept).",
  );
  readonly #decodeSeconds = new Histogram({
    name: "playhead_ingest_decode_seconds",
    help: "From a large body handed to the decode workers to its prepared batch, queue included.",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly #storeRequests = this.#counter(
    "playhead_store_requests_total",
    "Object store requests, by method and outcome (ok, missing, client_error, server_error, " +
      "failed: no answer in time or no connection).",
    ["method", "outcome"],
  );
  readonly #httpSeconds = new Histogram({
    name: "playhead_http_request_duration_seconds",
    help: "Time to each answer's head, by route pattern, method and status class.",
    labelNames: ["route", "method", "status_class"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly #cleanupRuns = this.#counter(
    "playhead_cleanup_runs_total",
    "Daily cleanup runs, by outcome (ok, skipped: another run held the lock, failed).",
    ["outcome"],
  );
  readonly #cleanupDeleted = this.#counter(
    "playhead_cleanup_deleted_rows_total",
    "Rows the daily cleanup deleted, by what they were.",
    ["kind"],
  );

  /** An ingest request's answer and the body bytes it read (0 when it was refused before). */
  ingestAnswered(status: number, receivedBytes: number) {
    this.#ingestRequests.inc({ status: String(status), outcome: ingestOutcome(status) });
    if (receivedBytes > 0) this.#receivedBytes.inc(receivedBytes);
  }

  /** A batch written; `stored` false when it was a duplicate of one already stored. */
  ingestStored(
    prepared: {
      batch: { data: Uint8Array } | null;
      eventCount: number;
      droppedRequests?: number;
    },
    stored: boolean,
  ) {
    if (prepared.droppedRequests) this.#droppedRequests.inc(prepared.droppedRequests);
    if (!stored || !prepared.batch) return;
    this.#storedBytes.inc(prepared.batch.data.byteLength);
    this.#events.inc(prepared.eventCount);
  }

  decodeJob(seconds: number) {
    this.#decodeSeconds.observe(seconds);
  }

  storeRequest(method: string, outcome: StoreOutcome) {
    this.#storeRequests.inc({ method: METHODS.has(method) ? method : "other", outcome });
  }

  /** `route` is a pattern (`/api/sessions/:id`), never the requested path. */
  httpRequest(route: string, method: string, status: number, seconds: number) {
    const labels = {
      route,
      method: METHODS.has(method) ? method : "other",
      status_class: `${Math.floor(status / 100)}xx`,
    };
    this.#httpSeconds.observe(labels, seconds);
  }

  /** Counts a cleanup run (and the rows it deleted) as it settles; answers what it answers. */
  async cleanup(run: Promise<CleanupResult>): Promise<CleanupResult> {
    let result: CleanupResult;
    try {
      result = await run;
    } catch (error) {
      this.#cleanupRuns.inc({ outcome: "failed" });
      throw error;
    }
    this.#cleanupRuns.inc({ outcome: result.skipped ? "skipped" : "ok" });
    for (const kind of ["invites", "sessions", "trackedUsers", "organizations"] as const) {
      this.#cleanupDeleted.inc({ kind }, result[kind]);
    }
    return result;
  }

  /**
   * A gauge whose value is read at each scrape (an unreadable one is left out of that scrape).
   * Registered once: an app built twice on the same deps (tests) keeps the first reader.
   */
  gauge(name: string, help: string, labelNames: string[], read: () => Reading | Promise<Reading>) {
    if (this.registry.getSingleMetric(name)) return;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        const reading = await Promise.resolve().then(read).catch((): Reading => []);
        for (const [labels, value] of reading) this.set(labels, value);
      },
    });
  }

  /** A counter kept by another module (its running total), read at each scrape. */
  counted(name: string, help: string, labelNames: string[], read: () => Reading) {
    if (this.registry.getSingleMetric(name)) return;
    new Counter({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [labels, value] of read()) this.inc(labels, value);
      },
    });
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  #counter(name: string, help: string, labelNames: string[] = []) {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }
}

function ingestOutcome(status: number): string {
  return INGEST_OUTCOMES[status] ?? (status >= 500 ? "server_error" : "other");
}
