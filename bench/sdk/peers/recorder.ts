// What the bench knows of one recorder: how a page loads it, how its service answers it (a loopback
// sink under /sink/<name>/), and, where its wire format is readable, when it took full snapshots.

/** One request a recorder made to its sink, as received. */
export interface SinkRequest {
  /** Milliseconds since the visit's navigation started (bench clock). */
  at: number;
  method: string;
  /** Path below /sink/<name>, with the query. */
  path: string;
  headers: Headers;
  /** The body as received (compressed where the recorder compressed it). */
  body: Uint8Array;
  /** Body bytes on the wire: as received, or as announced (Content-Length) when cut off. */
  wireBytes: number;
}

export interface Recorder {
  /** Short name: the sink's path segment and the table's row. */
  name: string;
  /** The row's label (package and version). */
  label: string;
  /** HTML put in the page's <head> (its scripts); empty for no recorder. */
  head: string;
  /** Files served at /rec/<name>/<file>. */
  files: Record<string, string>;
  /** The answer its service would give to a request at `path` below /sink/<name>. */
  answer(path: string, req: Request): Response;
  /**
   * Epoch milliseconds of the full snapshots in one request's body; null where the format is not
   * read (the time to the first full snapshot is then not reported).
   */
  snapshots: ((req: SinkRequest) => Promise<number[]>) | null;
  /** Called in the page at the end of the visit, before it is left (plain rrweb's last batch). */
  flushCall?: string;
}

/** Requests that are data (or the recorder asking its service), not scripts it loads. */
export function isDataRequest(req: SinkRequest): boolean {
  return !/\.(m?js)(\?|$)/.test(req.path);
}

export async function gunzip(bytes: Uint8Array, format: CompressionFormat = "gzip") {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new DecompressionStream(format),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** rrweb's FullSnapshot event type. */
export const FULL_SNAPSHOT = 2;

/** Timestamps of the rrweb full snapshots among `events`. */
export function fullSnapshotTimes(events: { type: number; timestamp: number }[]): number[] {
  return events.filter((e) => e.type === FULL_SNAPSHOT).map((e) => e.timestamp);
}
