// Wire schemas of the public ingest surface, POST /api/ingest (docs/decisions.md "Ingest"). The
// envelope and metadata are strict: a capture client out of step is told which field it sent that
// the service does not know, while event payloads stay open (rrweb's data is
// type-specific). Text bound for text/jsonb columns comes out storable (core/ingest/storable.ts).
import { EventType } from "@rrweb/types";
import { z } from "zod";
import { MAX_TRAITS } from "./limits.ts";
import { cutStrings } from "./marker_payload.ts";
import { RECORDING_REASONS } from "@/core/projects/recording_limits.ts";
import { MAX_JSON_DEPTH, storableJson, storableText, tooDeepPath } from "./storable.ts";
import { recordedTimeIssue } from "./recorded_time.ts";

export const MAX_EVENTS_PER_BATCH = 500;

/** A time in ms since the epoch, within the window around the server's clock it is checked at. */
const recordedAt = z.number().int().superRefine((ms, ctx) => {
  const issue = recordedTimeIssue(ms, Date.now());
  if (issue) ctx.addIssue({ code: "custom", message: issue });
});

/** A string stored in a text or jsonb column. */
const storedText = (max: number) => z.string().max(max).transform(storableText);

/** A JSON value stored in a jsonb column: nesting beyond MAX_JSON_DEPTH is refused by path. */
function refuseDeepNesting(value: unknown, ctx: z.RefinementCtx) {
  const path = tooDeepPath(value);
  if (path) {
    ctx.addIssue({ code: "custom", path, message: `nested deeper than ${MAX_JSON_DEPTH} levels` });
  }
}

/** An rrweb event; fields beyond these (e.g. rrweb internals) are kept as received. */
export const eventSchema = z.looseObject({
  type: z.number().int(),
  data: z.unknown(),
  timestamp: recordedAt,
  sliceIndex: z.number().int().nonnegative().optional(),
}).superRefine((event, ctx) => {
  // `service:*` payloads become marker rows (jsonb); the event itself is stored as received.
  const data = event.data as { tag?: unknown; payload?: unknown } | null;
  if (
    event.type === EventType.Custom && typeof data?.tag === "string" &&
    data.tag.startsWith("service:")
  ) {
    const path = tooDeepPath(data.payload);
    if (path) {
      ctx.addIssue({
        code: "custom",
        path: ["data", "payload", ...path],
        message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
  }
});

/** Traits as stored: storable, each text cut to MARKER_TEXT_CHARS, at most MAX_TRAITS of them. */
function boundedTraits(traits: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.entries(traits).slice(0, MAX_TRAITS);
  return cutStrings(storableJson(Object.fromEntries(kept))) as Record<string, unknown>;
}

export const userIdentitySchema = z.strictObject({
  userId: z.string().trim().min(1).max(256).transform(storableText)
    .pipe(z.string().min(1, "must hold a character other than NUL")),
  traits: z.record(z.string(), z.unknown()).default({}).superRefine(refuseDeepNesting)
    .transform(boundedTraits),
});

export const metadataSchema = z.strictObject({
  url: storedText(8192),
  referrer: storedText(8192),
  userAgent: storedText(2048),
  screenWidth: z.number().int().nonnegative(),
  screenHeight: z.number().int().nonnegative(),
  language: storedText(64),
  userIdentity: userIdentitySchema.optional(),
  // Why the SDK records the session (docs/decisions.md "Capture control"); absent: `sampled`.
  recordingReason: z.enum(RECORDING_REASONS).optional(),
  triggeredAt: recordedAt.optional(),
}).superRefine((m, ctx) => {
  const triggered = m.recordingReason !== undefined && m.recordingReason !== "sampled";
  if (triggered !== (m.triggeredAt !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["triggeredAt"],
      message: "required with a trigger's recordingReason, and only then",
    });
  }
});

export const sliceMarkerSchema = z.strictObject({
  index: z.number().int().nonnegative(),
  reason: storedText(256),
  startedAt: recordedAt,
  url: storedText(8192),
  pathname: storedText(8192),
});

/** The most a page numbers its events (the SDK counts from 0): far past any page's life. */
export const MAX_EVENT_SEQ = 2 ** 48;

export const ingestBodySchema = z.strictObject({
  sessionId: z.uuid(),
  events: z.array(eventSchema).max(MAX_EVENTS_PER_BATCH),
  metadata: metadataSchema.optional(),
  sliceMarkers: z.array(sliceMarkerSchema).optional(),
  // The SDK's page and the number of the first event in its sequence: each numbered event is
  // stored once, however its copies were cut into batches (docs/decisions.md "Ingest").
  pageId: z.uuid().optional(),
  seq: z.number().int().nonnegative().max(MAX_EVENT_SEQ).optional(),
}).refine((b) => (b.pageId === undefined) === (b.seq === undefined), {
  path: ["seq"],
  message: "sent with pageId, and only with it",
});

export const cancelBodySchema = z.strictObject({ sessionId: z.uuid() });

export type IngestEvent = z.output<typeof eventSchema>;
export type IngestBody = z.output<typeof ingestBodySchema>;
