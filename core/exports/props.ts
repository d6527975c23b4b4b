// What the server writes into an exported replay for its player (player/offline/entry.tsx).
import type { SessionMarker } from "@/player/ui/history.ts";

/** The one URL the exported player asks for, answered from the file itself. */
export const EXPORT_EVENTS_URL = "playhead-export:events";

export interface ExportProps {
  /** Epoch ms of the session's first event. */
  startedAt: number;
  duration: number;
  eventCount: number;
  markers: SessionMarker[];
}
