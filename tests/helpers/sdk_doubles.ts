// Test doubles for the SDK's unit tests: a scripted fetch, instant timers and fake storage. The
// fetch and the compressor answer within microtasks (fflate, no streams): a test waits for what was
// sent by letting the microtask queue drain (a fake clock's `runAllAsync()`), never for wall time.

import { EventType } from "@rrweb/types";
import { gzipSync } from "fflate";
import { gunzipSync } from "node:zlib";
import { type EncodedEvent, encodeEvent } from "@/sdk/send/encoded_event.ts";
import type { TransportDeps } from "@/sdk/send/transport.ts";
import type { KeyValueStorage } from "@/sdk/session_id.ts";
import type { RecordedEvent } from "@/sdk/types.ts";

export interface SentRequest {
  url: string;
  headers: Record<string, string>;
  keepalive: boolean;
  /** The body as JSON, gunzipped when it was sent gzipped. */
  json: Record<string, unknown>;
  bytes: number;
}

/** A fetch that answers statuses from `script` in turn (0 = network error), then 204. */
export function scriptedDeps(script: number[] = []) {
  const sent: SentRequest[] = [];
  const delays: number[] = [];
  const statuses = [...script];
  const deps: TransportDeps = {
    fetch: async (input, init) => {
      const headers = init!.headers as Record<string, string>;
      let bytes = init!.body as Uint8Array;
      const size = bytes.length;
      if (headers["content-encoding"] === "gzip") bytes = await gunzip(bytes);
      sent.push({
        url: String(input),
        headers,
        keepalive: init!.keepalive === true,
        json: JSON.parse(new TextDecoder().decode(bytes)),
        bytes: size,
      });
      const status = statuses.length > 0 ? statuses.shift()! : 204;
      if (status === 0) throw new TypeError("network down");
      return new Response(null, { status });
    },
    // Timers fire on the next microtask: tests check the sequence of delays, not wall time.
    setTimeout: (fn, ms) => {
      delays.push(ms);
      queueMicrotask(fn);
      return delays.length;
    },
    clearTimeout: () => {},
    gzip: (bytes) => Promise.resolve(gzipSync(bytes)),
  };
  return { deps, sent, delays };
}

/** gzip bodies, of one member or several (the transport's, sdk/send/transport.ts). */
export function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  return Promise.resolve(new Uint8Array(gunzipSync(bytes)));
}

/** Events numbered from `from`, each with `padding` characters of payload. */
export function events(count: number, from = 0, padding = 0): RecordedEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    type: EventType.IncrementalSnapshot,
    data: { n: from + i, pad: "x".repeat(padding) },
    timestamp: 1_700_000_000_000 + from + i,
  }));
}

/** Events numbered from `from`, encoded as the buffer holds them. */
export function encodedEvents(count: number, from = 0, padding = 0): EncodedEvent[] {
  return events(count, from, padding).map(encodeEvent);
}

/** The events an encoded list stands for. */
export function decoded(list: EncodedEvent[]): RecordedEvent[] {
  return list.map((e) => JSON.parse(e.json));
}

/** The `n` of every event sent, in order. */
export function numbers(list: { json: Record<string, unknown> }[]): number[] {
  return list.flatMap((r) =>
    (r.json.events as RecordedEvent[]).map((e) => (e.data as { n: number }).n)
  );
}

/** A Map-backed storage that throws like a full sessionStorage past `quota` characters. */
export class FakeStorage implements KeyValueStorage {
  readonly map = new Map<string, string>();
  constructor(readonly quota = Infinity) {}
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (value.length > this.quota) throw new DOMException("full", "QuotaExceededError");
    this.map.set(key, value);
  }
  removeItem(key: string): void {
    this.map.delete(key);
  }
}
