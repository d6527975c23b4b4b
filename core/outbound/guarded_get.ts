// One GET to an address taken from a recording, made safe for the server's own network
// (docs/decisions.md "Exports"): http(s) only; the host resolved first and every address it
// resolves to checked public (core/outbound/public_address.ts) unless the admin allowed the host;
// the connection made to those checked addresses (node's `lookup` answered with them, so no
// second lookup can name another); each redirect checked again the same way; bounded in
// redirects, bytes and time, and no body read whose type is refused. No cookie, no Referer.
import http from "node:http";
import https from "node:https";
import { lookup } from "node:dns/promises";
import { ipLiteral, isAllowedHost, isLocalName, isPublicAddress } from "./public_address.ts";

export interface GetOptions {
  /** Hosts (`host` or `host:port`) that may be fetched though they resolve to private addresses. */
  allowHosts: readonly string[];
  maxBytes: number;
  /** For the whole GET: the lookups, every redirect and the body. */
  timeoutMs: number;
  maxRedirects: number;
  /** The answer's content type (lowercase, without parameters) the body is read for. */
  acceptType: (type: string) => boolean;
  accept?: string;
  signal?: AbortSignal;
}

export type Refusal = "private" | "unsupported" | "failed" | "too_large" | "type";

export type Refused = { ok: false; reason: Refusal; detail: string };
export type GetOutcome = { ok: true; url: string; type: string; bytes: Uint8Array } | Refused;

interface Address {
  address: string;
  family: number;
}

const refused = (reason: Refusal, detail: string): Refused => ({ ok: false, reason, detail });

/** The addresses to connect to for `url`, each checked; or why there are none. */
async function checkedAddresses(
  url: URL,
  options: GetOptions,
  signal: AbortSignal,
): Promise<Address[] | Refused> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refused("unsupported", `not an http(s) address (${url.protocol})`);
  }
  const allowed = isAllowedHost(url, options.allowHosts);
  const literal = ipLiteral(url.hostname);
  let addresses: Address[];
  if (literal) addresses = [literal];
  else if (!allowed && isLocalName(url.hostname)) {
    return refused("private", `${url.hostname} is a local name`);
  } else {
    try {
      addresses = await Promise.race([
        lookup(url.hostname, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => {
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
      ]);
    } catch (error) {
      if (signal.aborted) throw error;
      return refused("failed", `${url.hostname} does not resolve`);
    }
  }
  if (!addresses.length) return refused("failed", `${url.hostname} does not resolve`);
  const closed = allowed ? undefined : addresses.find((a) => !isPublicAddress(a.address));
  if (closed) {
    return refused("private", literal ? closed.address : `${url.hostname} is ${closed.address}`);
  }
  return addresses;
}

interface Answer {
  status: number;
  location: string | null;
  type: string;
  /** A Content-Encoding other than identity (the bytes would not be what the type says). */
  encoded: boolean;
  length: number | null;
  response: http.IncomingMessage;
}

/** Sends the request to the checked addresses only: node's lookup is answered with them. */
function send(url: URL, addresses: Address[], accept: string, signal: AbortSignal) {
  return new Promise<Answer>((resolve, reject) => {
    const pinned = (
      _host: string,
      options: { all?: boolean },
      callback: (...args: unknown[]) => void,
    ) =>
      options.all
        ? callback(null, addresses)
        : callback(null, addresses[0].address, addresses[0].family);
    const client = url.protocol === "https:" ? https : http;
    const request = client.request({
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port || undefined,
      path: url.pathname + url.search,
      method: "GET",
      agent: false,
      lookup: pinned as never,
      headers: {
        Host: url.host,
        Accept: accept,
        "Accept-Encoding": "identity",
        "User-Agent": "Playhead (replay export)",
        Connection: "close",
      },
    }, (response) => {
      const header = (name: string) => {
        const value = response.headers[name];
        return typeof value === "string" ? value : null;
      };
      const length = Number(header("content-length") ?? NaN);
      resolve({
        status: response.statusCode ?? 0,
        location: header("location"),
        type: (header("content-type") ?? "").split(";")[0].trim().toLowerCase(),
        encoded: !/^(identity)?$/i.test(header("content-encoding")?.trim() ?? ""),
        length: Number.isSafeInteger(length) ? length : null,
        response,
      });
    });
    const abort = () => request.destroy(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    request.on("close", () => signal.removeEventListener("abort", abort));
    request.on("error", reject);
    request.end();
  });
}

/** The body, or null past `maxBytes` (the rest is not read). */
async function body(answer: Answer, maxBytes: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of answer.response as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) {
      answer.response.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Why a request failed, in a few words (no stack, no internal address). */
function failure(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return "timed out";
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET") return "connection reset";
  return typeof code === "string" ? code : "connection failed";
}

/** GETs `address` within the options' bounds; never throws. */
export async function guardedGet(address: string, options: GetOptions): Promise<GetOutcome> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return refused("unsupported", "not an address");
  }
  url.username = url.password = url.hash = "";
  try {
    for (let hop = 0;; hop++) {
      const addresses = await checkedAddresses(url, options, signal);
      if (!Array.isArray(addresses)) {
        return hop === 0 ? addresses : { ...addresses, detail: `redirected: ${addresses.detail}` };
      }
      const answer = await send(url, addresses, options.accept ?? "*/*", signal);
      if (REDIRECTS.has(answer.status) && answer.location !== null) {
        answer.response.destroy();
        if (hop >= options.maxRedirects) return refused("failed", "too many redirects");
        url = new URL(answer.location, url);
        url.username = url.password = url.hash = "";
        continue;
      }
      if (answer.status < 200 || answer.status > 299) {
        answer.response.destroy();
        return refused("failed", `HTTP ${answer.status}`);
      }
      if (answer.encoded) {
        answer.response.destroy();
        return refused("failed", "a compressed answer");
      }
      if (!options.acceptType(answer.type)) {
        answer.response.destroy();
        return refused("type", answer.type || "no content type");
      }
      if (answer.length !== null && answer.length > options.maxBytes) {
        answer.response.destroy();
        return refused("too_large", `${answer.length} bytes`);
      }
      const bytes = await body(answer, options.maxBytes);
      if (!bytes) return refused("too_large", `over ${options.maxBytes} bytes`);
      return { ok: true, url: url.href, type: answer.type, bytes };
    }
  } catch (error) {
    return refused("failed", failure(error, signal));
  }
}
