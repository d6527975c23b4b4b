// What the server writes into an exported replay for its player (player/offline/entry.tsx reads
// it, as a type only: nothing of core/ goes into the file's bundle).
import type { MarkerOut } from "@/core/sessions/schema.ts";

export interface ExportProps {
  /** Epoch ms of the session's first event. */
  startedAt: number;
  duration: number;
  eventCount: number;
  markers: MarkerOut[];
}
