// The network bundle (an on-demand module, sdk/lazy_modules.ts, started by sdk/network_loader.ts
// only when the project records requests): rrweb's network plugin records each fetch and XHR,
// sdk/network/requests.ts keeps what the project allows, redacted, before anything is queued; web
// vitals go out as `service:web_vital` events.
import { getRecordNetworkPlugin } from "@rrweb/rrweb-plugin-network-record";
import type { NetworkHost } from "@/sdk/network_host.ts";
import { isOwnRequest, type PluginRequest, recordedRequest, requestRules } from "./requests.ts";
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
  const nativeFetch = globalThis.fetch;
  const options = {
    initiatorTypes: ["fetch", "xmlhttprequest"],
    // Headers on: the plugin then wraps fetch and XHR, which gives each request its method.
    recordHeaders: true,
    // Bodies are read only for the content types recorded, and kept only for `bodyUrls`; never a
    // stream (text/event-stream), which the plugin would wait on before the page got its answer.
    recordBody: bodies ? BODY_TYPES : false,
    transformRequestFn: (raw: PluginRequest) => recordedRequest(raw, rules),
  };
  const plugin = getRecordNetworkPlugin(options as never);
  plugin.observer!(
    (payload: unknown) => {
      const { requests } = payload as { requests: unknown[] };
      if (requests.length) host.emit({ requests });
    },
    globalThis as never,
    options as never,
  );
  // Playhead's own requests (ingest, settings) skip the plugin: their headers and bodies are
  // never even read.
  const wrapped = globalThis.fetch;
  globalThis.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    let own = false;
    try {
      const address = input instanceof Request ? input.url : String(input);
      own = isOwnRequest(new URL(address, location.href).href, rules.endpoint);
    } catch {
      // an address fetch itself will refuse: the page gets fetch's own error
    }
    return (own ? nativeFetch : wrapped).call(globalThis, input, init);
  };
  if (host.settings.vitals !== false) watchVitals(host);
}
