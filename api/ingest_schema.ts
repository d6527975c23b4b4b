// Wire schemas of the public ingest surface (spec §4 POST /api/ingest, DECISIONS "Ingest").
import { z } from "zod";

export const MAX_EVENTS_PER_BATCH = 500;
export const PUBLIC_KEY_PATTERN = /^sp_[0-9a-f]{32}$/;

const epochMs = z.number().int().nonnegative();

/** An rrweb event; fields beyond these (e.g. rrweb internals) are kept as received. */
export const eventSchema = z.looseObject({
  type: z.number().int(),
  data: z.unknown(),
  timestamp: epochMs,
  sliceIndex: z.number().int().nonnegative().optional(),
});

export const userIdentitySchema = z.object({
  userId: z.string().trim().min(1).max(256),
  traits: z.record(z.string(), z.unknown()).default({}),
});

export const metadataSchema = z.object({
  url: z.string().max(8192),
  referrer: z.string().max(8192),
  userAgent: z.string().max(2048),
  screenWidth: z.number().int().nonnegative(),
  screenHeight: z.number().int().nonnegative(),
  language: z.string().max(64),
  userIdentity: userIdentitySchema.optional(),
});

export const sliceMarkerSchema = z.object({
  index: z.number().int().nonnegative(),
  reason: z.string().max(256),
  startedAt: epochMs,
  url: z.string().max(8192),
  pathname: z.string().max(8192),
});

export const ingestBodySchema = z.object({
  sessionId: z.uuid(),
  events: z.array(eventSchema).max(MAX_EVENTS_PER_BATCH),
  metadata: metadataSchema.optional(),
  sliceMarkers: z.array(sliceMarkerSchema).optional(),
});

export const cancelBodySchema = z.object({ sessionId: z.uuid() });

export type IngestEvent = z.infer<typeof eventSchema>;
export type IngestBody = z.infer<typeof ingestBodySchema>;
