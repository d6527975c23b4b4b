// Builders for ingest requests: rrweb-shaped events, batches and the POST itself.
import type { Hono } from "hono";
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { bodyParts } from "@/sdk/send/encoded_event.ts";
import type { SessionMetadata } from "@/sdk/types.ts";
import { T0 } from "./times.ts";

export interface TestEvent {
  type: number;
  data: unknown;
  timestamp: number;
  [extra: string]: unknown;
}

/** `count` rrweb-like events one second apart from `start`: meta, full snapshot, then mutations. */
export function recordedEvents(count: number, start = T0): TestEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const timestamp = start + i * 1000;
    if (i === 0) {
      return { type: 4, data: { href: "https://shop.test/", width: 1280, height: 800 }, timestamp };
    }
    if (i === 1) {
      return {
        type: 2,
        data: { node: { type: 0, childNodes: [] }, initialOffset: { left: 0, top: 0 } },
        timestamp,
      };
    }
    return { type: 3, data: { source: 2, type: 1, id: i, x: i, y: i * 2 }, timestamp };
  });
}

export function customEvent(tag: string, payload: unknown, timestamp: number): TestEvent {
  return { type: 5, data: { tag, payload }, timestamp };
}

export const METADATA = {
  url: "https://shop.test/products/42?ref=mail",
  referrer: "https://mail.test/",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0",
  screenWidth: 1280,
  screenHeight: 800,
  language: "en-GB",
};

export interface PostOptions {
  key?: string | null;
  gzip?: boolean;
  headers?: Record<string, string>;
  rawBody?: BodyInit;
}

export async function postIngest(
  app: Hono,
  body: unknown,
  options: PostOptions = {},
  path = "/api/ingest",
): Promise<Response> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    ...options.headers,
  };
  if (options.key) headers["x-service-public-key"] = options.key;
  let payload: BodyInit = options.rawBody ?? JSON.stringify(body);
  if (options.gzip && !options.rawBody) {
    headers["Content-Encoding"] = "gzip";
    payload = await gzipBytes(new TextEncoder().encode(payload as string));
  }
  return await app.request(path, { method: "POST", headers, body: payload });
}

export async function gzipBytes(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * `body` as the SDK sends it (sdk/send/transport.ts): its parts (`bodyParts`) gzipped one by one
 * with CompressionStream, the members concatenated; `parts` changes a part first.
 */
export async function sdkGzipBody(
  body: { sessionId: string; events: unknown[]; metadata?: unknown },
  parts: (parts: string[]) => string[] = (p) => p,
): Promise<Uint8Array<ArrayBuffer>> {
  const texts = bodyParts(
    body.sessionId,
    null,
    JSON.stringify(body.events),
    body.metadata as SessionMetadata | undefined,
  );
  const members = await Promise.all(
    parts(texts).map((part) => gzipBytes(new TextEncoder().encode(part))),
  );
  return new Uint8Array(await new Blob(members).arrayBuffer());
}

export async function gunzipJson(bytes: Uint8Array): Promise<unknown> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new DecompressionStream("gzip"),
  );
  return JSON.parse(await new Response(stream).text());
}

/** Row counts of every table ingest writes, to prove a refused request changed nothing. */
export async function ingestRowCounts(db: Kysely<Database>) {
  const count = async (table: "sessions" | "event_batches" | "markers" | "tracked_users") =>
    Number(
      (await db.selectFrom(table).select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()).n,
    );
  return {
    sessions: await count("sessions"),
    eventBatches: await count("event_batches"),
    markers: await count("markers"),
    trackedUsers: await count("tracked_users"),
  };
}
