// The one error body of every endpoint (docs/decisions.md "Common API rules"), as a zod schema for
// the OpenAPI document and for tests that check an error answer's shape.
import { z } from "zod";
import { type ErrorKind, STATUS_OF_KIND } from "@/core/errors.ts";

export const errorKind = z.enum(Object.keys(STATUS_OF_KIND) as [ErrorKind, ...ErrorKind[]]);

export const errorBody = z.strictObject({
  kind: errorKind,
  message: z.string(),
  issues: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  /** Seconds until a retry may succeed; rate_limited only (also sent as Retry-After). */
  retryAfter: z.number().int().nonnegative().optional(),
}).meta({ description: "every error answer, on every endpoint" });

/** The kind each error status carries. */
export const KIND_OF_STATUS: Record<number, ErrorKind> = Object.fromEntries(
  Object.entries(STATUS_OF_KIND).map(([kind, status]) => [status, kind as ErrorKind]),
);
