// One stored batch to events: base64, then gzip, then a JSON array. Runs in the decoding
// worker; plain web APIs only, so it is tested in Deno as it runs in the browser.

/** An event as decoded from a batch: rrweb's `eventWithTime` (@rrweb/types) unchecked until
 * `isReplayable` (event_check.ts) has looked at it, since a recording is untrusted input. */
export interface RecordedEvent {
  type: number;
  data: unknown;
  timestamp: number;
  [extra: string]: unknown;
}

/** A batch as the events endpoint sends it. */
export interface WireBatch {
  id: string;
  firstTimestamp: number;
  lastTimestamp: number;
  eventCount: number;
  data: string;
}

function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  // Native where the browser has it (much faster on megabyte snapshots).
  const native = (Uint8Array as { fromBase64?: (s: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  if (native) return native(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The batch's events; throws on bad base64, gzip or JSON, or on anything but an array of events. */
export async function decodeBatch(data: string): Promise<RecordedEvent[]> {
  return await decodeBytes(base64Bytes(data));
}

/** A batch's events from its stored gzip bytes (the server's cut, core/shares/cut_job.ts). */
export async function decodeBytes(bytes: Uint8Array<ArrayBuffer>): Promise<RecordedEvent[]> {
  const stream = new Blob([bytes]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  const events: unknown = JSON.parse(await new Response(stream).text());
  if (!Array.isArray(events)) throw new Error("the batch is not a list of events");
  return events.filter(isEvent);
}

function isEvent(value: unknown): value is RecordedEvent {
  const event = value as RecordedEvent;
  return typeof event === "object" && event !== null && typeof event.type === "number" &&
    Number.isFinite(event.timestamp);
}
