// Loads the network bundle when the project's settings turn network capture on: a classic
// script next to the SDK's own (its address taken from the SDK's script as it loaded, else the
// endpoint's /sdk/). The build names the file (sdk/build.ts). No integrity digest: the file comes
// from where the SDK itself came, so it is as trusted as the SDK, and the entry stays small.
import type { NetworkSettings } from "@/core/projects/network_limits.ts";
import type { NetworkBundle } from "./network_host.ts";
import { addCustomEvent, emitNetwork } from "./recorder.ts";
import type { ResolvedOptions } from "./types.ts";

declare const PLAYHEAD_NETWORK_FILE: string | undefined;

const sdkSrc = (globalThis.document?.currentScript as HTMLScriptElement | null)?.src;
let loading = false;

export function loadNetwork(network: NetworkSettings | undefined, options: ResolvedOptions) {
  if (!network?.enabled || loading || typeof PLAYHEAD_NETWORK_FILE !== "string") return;
  loading = true;
  const script = document.createElement("script");
  script.src = new URL(PLAYHEAD_NETWORK_FILE, sdkSrc || options.endpoint + "/sdk/").href;
  script.onload = () =>
    (globalThis as { PlayheadNetwork?: NetworkBundle }).PlayheadNetwork?.start({
      settings: network,
      options,
      emit: emitNetwork,
      custom: addCustomEvent,
    });
  document.head.append(script);
}
