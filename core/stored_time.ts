// Stored times as the wire's ISO 8601. PostgreSQL holds years up to 294276 and a JavaScript Date
// only up to 275760: a time ingest let through before it bounded them (core/ingest/recorded_time.ts)
// reads back as an invalid Date, whose toISOString() made every view that showed it a 500.

/** `at` as ISO 8601, or null when no Date holds it (shown as missing). */
export function storedIso(at: Date | null | undefined): string | null {
  return at && Number.isFinite(at.getTime()) ? at.toISOString() : null;
}

/** A time the wire requires: `at`, else `received` (the row's creation, by the server's clock). */
export function storedIsoOr(at: Date, received: Date): string {
  return storedIso(at) ?? received.toISOString();
}
