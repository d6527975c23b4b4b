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

/**
 * The key a per-address limit counts under: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber's network: a client given a /64 has 2^64 addresses to rotate through). An
 * IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function addressGroup(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  if (!bare.includes(":")) return bare;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1];
  const [head, tail = ""] = bare.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = bare.includes("::") ? (tail ? tail.split(":") : []) : [];
  if (tailParts.some((p) => p.includes("."))) tailParts.splice(-1, 1, "0", "0"); // embedded IPv4
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array(Math.max(0, missing)).fill("0"), ...tailParts];
  const prefix = parts.slice(0, 4).map((p) => (parseInt(p, 16) || 0).toString(16));
  return `${prefix.join(":")}::/64`;
}
