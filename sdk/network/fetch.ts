// Each fetch, recorded by the network bundle itself (rrweb's plugin records the XHRs). The plugin's
// fetch patch looks for the browser's timing entry of a request for ~2.75 s from its headers and,
// finding none (a body still arriving, a full resource-timing buffer), reported the request
// without its status or times: a 500 whose body came late was listed as status 0, 0 ms. Here the
// status is the response's; the times are the browser's entry for the request (its start, its
// response's end) when one comes within ENTRY_WAIT_MS of the headers, else this wrapper's clock
// from the call to the headers, or to the end of the body it read.
import type { Headers } from "./redact.ts";
import type { PluginRequest } from "./requests.ts";

/** How long a request waits for its timing entry (and a body read) after its headers. */
export const ENTRY_WAIT_MS = 10_000;

export interface FetchWatch {
  /** Playhead's own requests: sent as they are, never read or recorded. */
  own(url: string): boolean;
  /** Whether the body of this address and content type is read for the recording. */
  readsBody(url: string, contentType: string | null): boolean;
  /** A request done (answered or failed), as rrweb's plugin would hand it over. */
  report(request: PluginRequest): void;
}

interface Waiting {
  name: string;
  start: number;
  entry?: PerformanceResourceTiming;
  /** Called when the entry comes. */
  found?: () => void;
}

export function watchFetch(watch: FetchWatch): void {
  const native = globalThis.fetch;
  const waiting = new Set<Waiting>();
  const timed = typeof PerformanceObserver === "function" &&
    (PerformanceObserver.supportedEntryTypes ?? []).includes("resource");
  if (timed) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
        if (entry.initiatorType !== "fetch") continue;
        // Of the requests of this address, the one started last before the entry's start.
        let match: Waiting | undefined;
        for (const w of waiting) {
          if (w.name !== entry.name || w.entry || w.start > entry.startTime + 1) continue;
          if (!match || w.start > match.start) match = w;
        }
        if (match) {
          match.entry = entry;
          match.found?.();
        }
      }
    }).observe({ type: "resource" });
  }

  globalThis.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    let request: Request;
    try {
      const url = input instanceof Request ? input.url : new URL(String(input), document.baseURI);
      // Playhead's own uploads are not copied, let alone read.
      if (watch.own(String(url))) return native.call(globalThis, input, init);
      // A copy to read: the page's own request and body go to fetch untouched.
      const streamed = init?.body instanceof ReadableStream;
      request = new Request(
        input instanceof Request ? input.clone() : input,
        streamed ? { ...init, body: null } : init,
      );
    } catch {
      return native.call(globalThis, input, init); // fetch's own error
    }
    const w: Waiting = { name: request.url, start: performance.now() };
    waiting.add(w);
    const sent = native.call(globalThis, input, init);
    const requestHeaders = headersOf(request.headers);
    const requestBody =
      request.body && watch.readsBody(request.url, request.headers.get("content-type"))
        ? request.text().catch(() => undefined)
        : undefined;
    const done = (answer: Omit<PluginRequest, "name" | "method" | "initiatorType">) => {
      waiting.delete(w);
      void (requestBody ?? Promise.resolve(undefined)).then((body) =>
        watch.report({
          name: request.url,
          method: request.method,
          initiatorType: "fetch",
          requestHeaders,
          ...(body === undefined ? {} : { requestBody: body }),
          ...answer,
        })
      );
    };
    return sent.then((response) => {
      answered(response, w, !timed, watch, done);
      return response;
    }, (error) => {
      const end = performance.now();
      done({ status: 0, startTime: Math.round(w.start), endTime: Math.round(end) });
      throw error;
    });
  };
}

/** Waits for the entry and the body read (each at most ENTRY_WAIT_MS), then reports once. */
function answered(
  response: Response,
  w: Waiting,
  untimed: boolean,
  watch: FetchWatch,
  done: (answer: Omit<PluginRequest, "name" | "method" | "initiatorType">) => void,
): void {
  const headersAt = performance.now();
  const responseHeaders = headersOf(response.headers);
  const reader = response.body && watch.readsBody(w.name, response.headers.get("content-type"))
    ? response.clone().body!.getReader()
    : null;
  let body: string | undefined;
  let bodyEnd: number | undefined;
  let read = reader === null;
  let reported = false;
  const settle = (late = false) => {
    if (reported || (!late && (!read || !(w.entry || untimed)))) return;
    reported = true;
    clearTimeout(timer);
    if (!read) reader?.cancel().catch(() => {}); // a body still arriving is not kept
    const startTime = w.entry?.startTime ?? w.start;
    const endTime = w.entry ? w.entry.responseEnd : bodyEnd ?? headersAt;
    done({
      status: response.status,
      startTime: Math.round(startTime),
      endTime: Math.round(Math.max(startTime, endTime)),
      responseHeaders,
      ...(read && body !== undefined ? { responseBody: body } : {}),
    });
  };
  const timer = setTimeout(() => settle(true), ENTRY_WAIT_MS);
  w.found = () => settle();
  if (reader) {
    readText(reader).then((text) => {
      body = text;
      bodyEnd = performance.now();
    }, () => {}).finally(() => {
      read = true;
      settle();
    });
  }
  settle();
}

/** A body's text, read from our copy of it (the page reads its own). */
async function readText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

function headersOf(headers: globalThis.Headers): Headers {
  const out: Headers = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}
