// Which hosts an outbound request of ours may reach (docs/decisions.md "Exports"): a recording is
// written by whoever loads the recorded site, so an address in it may name the server's own
// network (loopback, RFC 1918, link-local cloud metadata, CGNAT, ULA, multicast, …). Only public
// unicast addresses pass, unless the admin named the host (`EXPORT_FETCH_ALLOW_HOSTS`).
import ipaddr from "ipaddr.js";

const GLOBAL_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Whether an IP address (v4 or v6, as text) is a public unicast one. An IPv4-mapped IPv6 address is
 * judged as its IPv4 address; an IPv6 address outside 2000::/3 is not global (ipaddr.js calls
 * `::7f00:1`, IPv4-compatible, unicast), nor are those embedding an IPv4 address (6to4, Teredo,
 * NAT64), which ipaddr.js ranges apart.
 */
export function isPublicAddress(ip: string): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip);
  } catch {
    return false;
  }
  if (address.range() !== "unicast") return false;
  return address.kind() === "ipv4" || (address as ipaddr.IPv6).match(GLOBAL_V6);
}

/** An IP literal as a URL's hostname writes it (IPv6 in brackets): its address, else null. */
export function ipLiteral(hostname: string): { address: string; family: 4 | 6 } | null {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return { address: bare, family: 4 };
  return ipaddr.IPv6.isValid(bare) ? { address: bare, family: 6 } : null;
}

/**
 * Names that no public DNS answers for (RFC 6761, 6762, 8375 and the usual private suffixes), and
 * single labels, which a resolver completes with the local search domains: never looked up.
 */
const LOCAL_NAME =
  /(^|\.)(localhost|local|localdomain|internal|intranet|private|corp|lan|home|home\.arpa|test|invalid|example|onion)\.?$/i;
export const isLocalName = (hostname: string) =>
  LOCAL_NAME.test(hostname) || !hostname.replace(/\.$/, "").includes(".");

/** A host the admin lets be fetched though private: `host`, or `host:port` for that port only. */
export function isAllowedHost(url: URL, allowHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowHosts.some((entry) => entry === host || entry === `${host}:${port}`);
}
