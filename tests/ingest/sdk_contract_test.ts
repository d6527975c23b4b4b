// The SDK and the server share one ingest contract: the body type the SDK sends (sdk/types.ts)
// must be accepted by the server's schema (core/ingest/schema.ts). The type-level half fails
// `deno check` (and so this test) as soon as they part; the run-time half parses a body the SDK
// assembled itself.
import assert from "node:assert/strict";
import type { z } from "zod";
import { cancelBodySchema, ingestBodySchema } from "@/core/ingest/schema.ts";
import { encodeEvent, ingestJson } from "@/sdk/send/encoded_event.ts";
import type { IngestBody, RecordedEvent, SessionMetadata } from "@/sdk/types.ts";
import { T0 } from "@/tests/helpers/times.ts";
import { gzipBytes } from "@/tests/helpers/ingest.ts";
import { decodeIngestWire } from "@/api/ingest/decode.ts";
import { gunzipSync } from "node:zlib";

/** Compiles only when the SDK's type `Sent` is assignable to the schema's input. */
type Accepts<Schema extends z.ZodType, Sent extends z.input<Schema>> = [Schema, Sent];

export type Checked = [
  Accepts<typeof ingestBodySchema, IngestBody>,
  Accepts<typeof cancelBodySchema, Pick<IngestBody, "sessionId">>,
];

Deno.test("sdk contract: a body the SDK assembles parses against the server's ingest schema", () => {
  const metadata: SessionMetadata = {
    url: "https://shop.example/cart?step=2",
    referrer: "",
    userAgent: "Mozilla/5.0",
    screenWidth: 1280,
    screenHeight: 800,
    language: "en-GB",
    userIdentity: { userId: "user-42", traits: { plan: "pro" } },
  };
  const events: RecordedEvent[] = [
    {
      type: 4,
      data: { href: metadata.url, width: 1280, height: 800 },
      timestamp: T0,
    },
    { type: 3, data: { source: 2, type: 2 }, timestamp: T0 + 250, extra: "kept" },
  ];
  const sessionId = crypto.randomUUID();
  const sent = JSON.parse(ingestJson(sessionId, events.map(encodeEvent), metadata).join(""));

  const parsed = ingestBodySchema.safeParse(sent);
  if (!parsed.success) assert.fail(parsed.error.message);
  assert.equal(parsed.data.sessionId, sessionId);
  assert.deepEqual(parsed.data.events, events);
  assert.deepEqual(parsed.data.metadata, metadata);
});

Deno.test("sdk contract: the events of a body the SDK gzips are stored as it sent them", async () => {
  const events: RecordedEvent[] = [
    { type: 4, data: { href: "https://shop.example/", width: 1, height: 1 }, timestamp: T0 },
    { type: 3, data: { source: 2, type: 2, x: 1.5 }, timestamp: T0 + 250, extra: "kept" },
    { type: 5, data: { tag: "service:rage_click", payload: { n: 4 } }, timestamp: T0 + 300 },
  ];
  const parts = ingestJson(crypto.randomUUID(), events.map(encodeEvent));
  const members = await Promise.all(parts.map((p) => gzipBytes(new TextEncoder().encode(p))));
  const gzip = new Uint8Array(await new Blob(members).arrayBuffer());
  const { body, sent } = decodeIngestWire({ bytes: new Uint8Array(gunzipSync(gzip)), gzip });
  assert.deepEqual(body.events, events);
  assert.deepEqual(sent?.gzip, members[1]);
  assert.equal(new TextDecoder().decode(sent?.json), JSON.stringify(body.events));
});
