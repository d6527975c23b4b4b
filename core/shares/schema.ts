// Wire schemas of public links to a session (docs/decisions.md "Shares"): the request that makes
// one, and a link as the dashboard lists it (never its token, which only the answer to its
// creation holds).
import { z } from "zod";

/** Longest a link may live: 30 days. */
export const MAX_EXPIRY_HOURS = 720;
export const DEFAULT_EXPIRY_HOURS = 168;

const offset = z.number().int().min(0).max(1e12);

export const createShareBody = z.strictObject({
  expiresInHours: z.number().int().min(1).max(MAX_EXPIRY_HOURS).default(DEFAULT_EXPIRY_HOURS)
    .meta({ description: "1..720, default 168 (a week)" }),
  startMs: offset.optional().meta({ description: "ms from the session's first event" }),
  endMs: offset.optional().meta({ description: "ms from the session's first event, > startMs" }),
  showConsole: z.boolean().default(false),
}).refine((b) => b.startMs === undefined || b.endMs === undefined || b.endMs > b.startMs, {
  message: "endMs must be after startMs",
  path: ["endMs"],
});
export type CreateShareInput = z.output<typeof createShareBody>;

const iso = z.iso.datetime();

export const share = z.strictObject({
  id: z.string(),
  sessionId: z.string(),
  startMs: z.number().int().nullable(),
  endMs: z.number().int().nullable(),
  showConsole: z.boolean(),
  expiresAt: iso,
  revokedAt: iso.nullable(),
  /** `active`, or why the link answers 404 now. */
  status: z.enum(["active", "expired", "revoked"]),
  views: z.number().int(),
  lastViewedAt: iso.nullable(),
  createdAt: iso,
  createdBy: z.string().nullable().meta({ description: "the creator's name or email" }),
});
export type ShareOut = z.output<typeof share>;

export const createdShare = share.extend({
  url: z.string().meta({ description: "the link; its token is shown in this answer only" }),
});
export type CreatedShare = z.output<typeof createdShare>;

export const shareList = z.strictObject({ shares: z.array(share) });
