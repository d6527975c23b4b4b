// The network bundle (an on-demand module, sdk/lazy_modules.ts, started by sdk/network/loader.ts
// only when the project records requests): rrweb's network plugin records each XHR and ./fetch.ts
// each fetch, sdk/network/requests.ts keeps what the project allows, redacted, before anything is
// queued; web vitals go out as `service:web_vital` events.
import { getRecordNetworkPlugin } from "@rrweb/rrweb-plugin-network-record";
import type { NetworkHost } from "./host.ts";
import { watchFetch } from "./fetch.ts";
import {
  isOwnRequest,
  type PluginRequest,
  recordedRequest,
  recordsBody,
  requestRules,
} from "./requests.ts";
import { watchVitals } from "./vitals.ts";

const BODY_TYPES = [
  "json",
  "text/plain",
  "text/html",
  "text/xml",
  "text/csv",
  "xml",
  "x-www-form-urlencoded",
];

let started = false;

/** Whether the bundle records this page's requests (tests import the module and ask). */
export function running(): boolean {
  return started;
}

export function start(host: NetworkHost): void {
  if (started) return;
  started = true;
  const strings = (list: unknown) =>
    Array.isArray(list) ? list.filter((s): s is string => typeof s === "string") : [];
  const settings = {
    headers: strings(host.settings.headers),
    bodyUrls: strings(host.settings.bodyUrls),
  };
  const rules = requestRules(settings, host.options, performance.timeOrigin);
  const bodies = settings.bodyUrls.length > 0;
  // Bodies are read only for the content types recorded, and kept only for `bodyUrls`; never a
  // stream (text/event-stream), which would be read for as long as it runs.
  const readsBody = (type: string | null) => bodies && BODY_TYPES.some((t) => type?.includes(t));
  const options = {
    initiatorTypes: ["xmlhttprequest"],
    // Headers on: the plugin then wraps XHR, which gives each request its method.
    recordHeaders: true,
    recordBody: bodies ? BODY_TYPES : false,
    transformRequestFn: (raw: PluginRequest) => recordedRequest(raw, rules),
  };
  const plugin = getRecordNetworkPlugin(options as never);
  const open = XMLHttpRequest.prototype.open;
  plugin.observer!(
    (payload: unknown) => {
      const { requests } = payload as { requests: unknown[] };
      if (requests.length) host.emit({ requests });
    },
    globalThis as never,
    options as never,
  );
  keepOpening(open);
  // Playhead's own requests (ingest, settings) are sent as they are: their headers and bodies are
  // never even read.
  watchFetch({
    own: (url) => isOwnRequest(url, rules.endpoint),
    readsBody: (url, type) => readsBody(type) && recordsBody(url, rules),
    report: (raw) => {
      const request = recordedRequest(raw, rules);
      if (request) host.emit({ requests: [request] });
    },
  });
  if (host.settings.vitals !== false) watchVitals(host);
}

/**
 * The plugin's XHR `open` builds a `Request` of the address first, which throws where the
 * browser's own `open` does not (an address with a user and password, `http://user:pass@host/`):
 * the page's request must not break because it is recorded, so when the patched `open` throws,
 * the browser's `open` is called as if unpatched (the request goes unrecorded, or fails with the
 * browser's own error).
 */
function keepOpening(original: XMLHttpRequest["open"]): void {
  const proto = XMLHttpRequest.prototype;
  const patched = proto.open;
  if (patched === original) return;
  proto.open = function (this: XMLHttpRequest, ...args: unknown[]) {
    try {
      return (patched as (...a: unknown[]) => void).apply(this, args);
    } catch {
      return (original as (...a: unknown[]) => void).apply(this, args);
    }
  } as XMLHttpRequest["open"];
}
