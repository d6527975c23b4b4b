// Starts the network bundle (sdk/network/mod.ts, an on-demand module: sdk/lazy_modules.ts) when
// the project's settings turn network capture on.
import type { NetworkSettings } from "@/core/projects/network_limits.ts";
import { loadLazy } from "@/sdk/lazy_modules.ts";
import { addCustomEvent, emitNetwork } from "@/sdk/capture/recorder.ts";
import type { ResolvedOptions } from "@/sdk/types.ts";

let loading = false;

export function loadNetwork(network: NetworkSettings | undefined, options: ResolvedOptions) {
  if (!network?.enabled || loading) return;
  loading = true;
  void loadLazy(options.endpoint, "network").then((bundle) =>
    bundle?.start({ settings: network, options, emit: emitNetwork, custom: addCustomEvent })
  );
}
