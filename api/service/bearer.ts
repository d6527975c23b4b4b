// Bearer tokens of the service endpoints (the cron's CRON_SECRET, /metrics' METRICS_TOKEN).
import { createHash, timingSafeEqual } from "node:crypto";

/** The token of an `Authorization: Bearer <token>` header, or "". */
export function bearerToken(header: string | undefined): string {
  return header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
}

/** Compares digests so the time taken says nothing about how much of the secret matched. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
