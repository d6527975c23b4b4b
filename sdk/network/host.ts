// What the SDK's entry hands its network bundle (sdk/network/mod.ts, a module of its own loaded
// only when the project records requests): the settings, and the two ways into rrweb's stream.
import type { NetworkSettings } from "@/core/projects/network_limits.ts";

export interface NetworkHost {
  settings: NetworkSettings;
  /** The SDK's resolved options (the endpoint, input masking). */
  options: { endpoint: string; privacyMaskInputs: boolean };
  /** Emits an `rrweb/network@1` plugin event while rrweb records; false when it does not. */
  emit(payload: unknown): boolean;
  /** Emits a custom event while rrweb records; false when it does not. */
  custom(tag: string, payload: unknown): boolean;
}
