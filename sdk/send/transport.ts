// HTTP to the service: one ingest request (optionally gzipped), the 1 s / 2 s / 4 s retry policy
// (5xx, 408 and network errors; other 4xx are not retried), keepalive posts at unload, and the
// cancel call.

/** Waits between attempts after a 5xx or network error. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000] as const;
/** The service's answer to a body that did not arrive in time: retried, unlike other 4xx. */
const REQUEST_TIMEOUT = 408;
/** Regular flushes gzip bodies larger than this many bytes (keepalive ones always). */
export const GZIP_THRESHOLD_BYTES = 1_024;

/** Everything the transport needs from the environment; injected so tests control time and I/O. */
export interface TransportDeps {
  fetch: typeof fetch;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** Asynchronous gzip (CompressionStream), or null where the browser lacks it. */
  gzip: ((bytes: Uint8Array) => Promise<Uint8Array>) | null;
}

/**
 * delivered = 2xx; rejected = 4xx (never retried); failed = 5xx, 408 or network, after all
 * retries. A 408 means the service never got the whole body (a slow upload timed out): like a
 * network error, the batch is intact and worth sending again.
 */
export type SendOutcome = "delivered" | "rejected" | "failed" | "aborted";

export interface TransportConfig {
  endpoint: string;
  apiKey: string;
}

const encoder = new TextEncoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export class Transport {
  constructor(readonly config: TransportConfig, readonly deps: TransportDeps) {}

  /**
   * Posts one batch (its JSON body in parts, `ingestJson`), retrying 5xx, 408 and network errors
   * after 1, 2 and 4 s unless `signal` aborts.
   */
  async send(
    parts: string[],
    signal: AbortSignal,
  ): Promise<{ outcome: SendOutcome; status: number }> {
    const payload = await this.#prepare(parts);
    let status = 0;
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0 && !(await this.#sleep(RETRY_DELAYS_MS[attempt - 1], signal))) {
        return { outcome: "aborted", status };
      }
      status = await this.#post("/api/ingest", payload.bytes, payload.gzipped, false);
      if (status >= 200 && status < 300) return { outcome: "delivered", status };
      if (status >= 400 && status < 500 && status !== REQUEST_TIMEOUT) {
        return { outcome: "rejected", status };
      }
      if (signal.aborted) return { outcome: "aborted", status };
    }
    return { outcome: "failed", status };
  }

  /** Fire-and-forget keepalive post of a body, gzipped already or not; never retried. */
  sendKeepalive(body: Uint8Array, gzipped: boolean): Promise<number> {
    return this.#post("/api/ingest", body, gzipped, true);
  }

  /** Asks the service to delete the session (`POST /api/sessions/cancel`). */
  cancel(sessionId: string): Promise<number> {
    return this.#post("/api/sessions/cancel", encodeJson({ sessionId }), false, true);
  }

  async #prepare(parts: string[]): Promise<{ bytes: Uint8Array; gzipped: boolean }> {
    const bytes = encoder.encode(parts.join(""));
    const gzip = this.deps.gzip;
    if (bytes.length <= GZIP_THRESHOLD_BYTES || !gzip) return { bytes, gzipped: false };
    try {
      // A gzip member per part, one stream to any reader (RFC 1952): the events' member is stored
      // as it came (docs/decisions.md "Ingest").
      const members = await Promise.all(parts.map((part) => gzip(encoder.encode(part))));
      return {
        bytes: new Uint8Array(await new Blob(members as BlobPart[]).arrayBuffer()),
        gzipped: true,
      };
    } catch {
      return { bytes, gzipped: false };
    }
  }

  /** Returns the HTTP status, or 0 for a network error. */
  async #post(
    path: string,
    body: Uint8Array,
    gzipped: boolean,
    keepalive: boolean,
  ): Promise<number> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-service-public-key": this.config.apiKey,
    };
    if (gzipped) headers["content-encoding"] = "gzip";
    try {
      const response = await this.deps.fetch(this.config.endpoint + path, {
        method: "POST",
        headers,
        body: body as BodyInit,
        keepalive,
        credentials: "omit",
        mode: "cors",
      });
      // Drain so the connection can be reused; the body is empty or a short error.
      await response.body?.cancel().catch(() => {});
      return response.status;
    } catch {
      return 0;
    }
  }

  /** Resolves true after `ms`, or false as soon as `signal` aborts. */
  #sleep(ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer: { handle?: unknown } = {};
      const onAbort = () => {
        this.deps.clearTimeout(timer.handle);
        resolve(false);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      timer.handle = this.deps.setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
    });
  }
}

/** The real browser environment. */
export function browserTransportDeps(): TransportDeps {
  return {
    fetch: (input, init) => fetch(input, init),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as number),
    gzip: platformGzip(),
  };
}

/** gzip through the platform's CompressionStream, or null where it does not exist. */
export function platformGzip(): ((bytes: Uint8Array) => Promise<Uint8Array>) | null {
  if (typeof CompressionStream === "undefined") return null;
  return async (bytes) => {
    const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
      new CompressionStream("gzip"),
    );
    return new Uint8Array(await new Response(stream).arrayBuffer());
  };
}
