// One POST to an alert's webhook or Slack address (docs/decisions.md "Alerts"): https only and
// public addresses only (core/outbound/public_address.ts) unless private targets are allowed;
// checked at each send (a name that now resolves privately is refused: DNS rebinding), the
// connection made to the checked addresses only, no redirect followed, bounded in time.
import http from "node:http";
import https from "node:https";
import { lookup } from "node:dns/promises";
import { ipLiteral, isLocalName, isPublicAddress } from "./public_address.ts";

export interface PostOptions {
  /** Private, loopback and link-local addresses and http: allowed (intranets, tests). */
  allowPrivate: boolean;
  timeoutMs: number;
  headers: Record<string, string>;
}

export type PostOutcome =
  | { ok: true; status: number }
  | { ok: false; reason: "refused" | "failed" | "timeout"; detail: string };

interface Address {
  address: string;
  family: number;
}

/** The addresses `address` may be reached at, or why it may not. */
export async function checkTarget(
  address: string,
  allowPrivate: boolean,
): Promise<{ ok: true; url: URL; addresses: Address[] } | { ok: false; detail: string }> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { ok: false, detail: "not a URL" };
  }
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return { ok: false, detail: "must be an https: address" };
  if (url.username || url.password) return { ok: false, detail: "must not carry credentials" };
  const literal = ipLiteral(url.hostname);
  let addresses: Address[];
  if (literal) addresses = [literal];
  else if (!allowPrivate && isLocalName(url.hostname)) {
    return { ok: false, detail: `${url.hostname} is a local name` };
  } else {
    try {
      addresses = await lookup(url.hostname, { all: true, verbatim: true });
    } catch {
      return { ok: false, detail: `${url.hostname} does not resolve` };
    }
  }
  if (!addresses.length) return { ok: false, detail: `${url.hostname} does not resolve` };
  const closed = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
  if (closed) return { ok: false, detail: `${url.hostname} is a private address` };
  return { ok: true, url, addresses };
}

export async function guardedPost(
  address: string,
  body: string,
  options: PostOptions,
): Promise<PostOutcome> {
  const target = await checkTarget(address, options.allowPrivate);
  if (!target.ok) return { ok: false, reason: "refused", detail: target.detail };
  const { url, addresses } = target;
  return await new Promise<PostOutcome>((resolve) => {
    const pinned = (_h: string, o: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      o.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family);
    const client = url.protocol === "https:" ? https : http;
    const request = client.request({
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port || undefined,
      path: url.pathname + url.search,
      method: "POST",
      agent: false,
      lookup: pinned as never,
      headers: {
        ...options.headers,
        Host: url.host,
        "Content-Length": String(new TextEncoder().encode(body).length),
        "User-Agent": "Playhead (alerts)",
        Connection: "close",
      },
    }, (response) => {
      response.resume();
      clearTimeout(timer);
      resolve({ ok: true, status: response.statusCode ?? 0 });
    });
    const timer = setTimeout(() => {
      request.destroy();
      resolve({ ok: false, reason: "timeout", detail: `no answer in ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: "failed", detail: error.message });
    });
    request.end(body);
  });
}
