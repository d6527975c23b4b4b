// One request as the network bundle records it: rrweb's network plugin hands each fetch and XHR
// over (`rrweb/network@1`'s request shape) and this keeps what the project allows, redacted, or
// drops it (Playhead's own requests, and other initiators than fetch and XHR).
import { type PathRule, pathRule } from "@/sdk/capture/url_rules.ts";
import { bodyKind, type Headers, keepHeaders, redactBody, redactUrl } from "./redact.ts";

/** What rrweb's network plugin passes to `transformRequestFn`. */
export interface PluginRequest {
  name: string;
  method?: string;
  initiatorType?: string;
  status?: number;
  startTime?: number;
  endTime?: number;
  requestHeaders?: Headers;
  responseHeaders?: Headers;
  requestBody?: unknown;
  responseBody?: unknown;
}

/** A recorded request: the plugin's shape, plus its epoch start and sizes (ingest's schema). */
export interface RecordedRequest {
  name: string;
  method: string;
  initiatorType: "fetch" | "xmlhttprequest";
  /** 0: no answer (a network failure, a refused CORS request). */
  status: number;
  startTime: number;
  endTime: number;
  /** Epoch ms of the start. */
  timestamp: number;
  requestSize?: number;
  responseSize?: number;
  requestHeaders?: Headers;
  responseHeaders?: Headers;
  requestBody?: string;
  responseBody?: string;
}

export interface RequestRules {
  /** Header names the project keeps. */
  headers: readonly string[];
  /** Whether a path's bodies are recorded (the project's `bodyUrls`). */
  bodies: PathRule;
  /** Input masking is on: bodies are masked (docs/decisions.md "Network capture"). */
  maskBodies: boolean;
  /** Playhead's own origin and path prefix: never recorded. */
  endpoint: string;
  /** performance.timeOrigin. */
  timeOrigin: number;
}

export function requestRules(
  settings: { headers: string[]; bodyUrls: string[] },
  options: { endpoint: string; privacyMaskInputs: boolean },
  timeOrigin: number,
): RequestRules {
  return {
    headers: settings.headers.map((h) => h.toLowerCase()),
    bodies: settings.bodyUrls.length ? pathRule([], [settings.bodyUrls]) : () => false,
    maskBodies: options.privacyMaskInputs,
    endpoint: options.endpoint.replace(/\/+$/, ""),
    timeOrigin,
  };
}

/** Whether an address is Playhead's own (its endpoint, or under it). */
export function isOwnRequest(address: string, endpoint: string): boolean {
  return address === endpoint || address.startsWith(endpoint + "/") ||
    address.startsWith(endpoint + "?");
}

const size = (headers: Headers | undefined) => {
  const length = Number(headers?.["content-length"]);
  return Number.isFinite(length) && length >= 0 ? length : undefined;
};

const lower = (headers: Headers | undefined): Headers =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

/** Whether the bodies of requests to this address are recorded (the project's `bodyUrls`). */
export function recordsBody(address: string, rules: RequestRules): boolean {
  return rules.bodies(pathOf(address));
}

/** The request as recorded, or null when it is not recorded at all. */
export function recordedRequest(raw: PluginRequest, rules: RequestRules): RecordedRequest | null {
  const type = raw.initiatorType ?? "fetch";
  if (type !== "fetch" && type !== "xmlhttprequest") return null;
  if (typeof raw.name !== "string" || isOwnRequest(raw.name, rules.endpoint)) return null;
  const startTime = raw.startTime ?? performanceNow(rules);
  const endTime = Math.max(startTime, raw.endTime ?? startTime);
  const requestHeaders = lower(raw.requestHeaders);
  const responseHeaders = lower(raw.responseHeaders);
  const request: RecordedRequest = {
    name: redactUrl(raw.name),
    method: (raw.method ?? "GET").toUpperCase(),
    initiatorType: type,
    status: Number.isInteger(raw.status) ? raw.status! : 0,
    startTime,
    endTime,
    timestamp: Math.round(rules.timeOrigin + startTime),
  };
  const requestText = typeof raw.requestBody === "string" ? raw.requestBody : undefined;
  const responseText = typeof raw.responseBody === "string" ? raw.responseBody : undefined;
  const requestSize = size(requestHeaders) ?? requestText?.length;
  const responseSize = size(responseHeaders) ?? responseText?.length;
  if (requestSize !== undefined) request.requestSize = requestSize;
  if (responseSize !== undefined) request.responseSize = responseSize;
  const kept = [
    keepHeaders(requestHeaders, rules.headers),
    keepHeaders(responseHeaders, rules.headers),
  ];
  if (Object.keys(kept[0]).length) request.requestHeaders = kept[0];
  if (Object.keys(kept[1]).length) request.responseHeaders = kept[1];
  if (recordsBody(raw.name, rules)) {
    const sent = bodyKind(requestHeaders["content-type"]);
    if (requestText && sent) {
      request.requestBody = redactBody(requestText, sent, rules.maskBodies ? "request" : "none");
    }
    const answered = bodyKind(responseHeaders["content-type"]);
    if (responseText && answered) {
      request.responseBody = redactBody(
        responseText,
        answered,
        rules.maskBodies ? "response" : "none",
      );
    }
  }
  return request;
}

function pathOf(address: string): string {
  try {
    return new URL(address).pathname;
  } catch {
    return address.split(/[?#]/)[0];
  }
}

function performanceNow(rules: RequestRules): number {
  return Math.round(Date.now() - rules.timeOrigin);
}
