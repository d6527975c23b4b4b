// The address a request came from: the TCP peer the server reports (serve.ts; the env Hono passes
// to handlers), or, behind a trusted reverse proxy (TRUST_PROXY=true), the address that proxy
// appended last to X-Forwarded-For. "unknown" when neither exists (e.g. `app.request()` in tests).
import type { Context } from "hono";

export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  const env = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return env?.remoteAddr?.hostname ?? "unknown";
}
