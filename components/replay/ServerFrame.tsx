// The recording's first frame, or its frame at the moment the page opened at, as the server renders
// it (recording/model/first_frame.ts, recording/model/moment_frame.ts), in the player slot
// before any script runs: a sandboxed iframe without scripts, scaled and centred by CSS alone
// (static/replay.css) exactly as the player fits its own frame. Unlike rrweb's it has no
// allow-same-origin: nothing reads it, and a srcdoc document of the page's origin would give loads
// its recorded CSS starts the dashboard's origin as Referer (player/dom/blank_address.ts says why). Its
// HTML reaches the island's server render through context, never its props (which would send it
// twice); in the browser the context is empty and hydration leaves the markup as the server wrote
// it.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Size } from "@/player/load/recording.ts";

/**
 * Where the frame's document comes from, as an iframe attribute: `srcdoc="…"` (its HTML escaped,
 * core/sessions/frame_job.ts `ServedFrame`), or `src="…"` for one served at its own address.
 */
export const ServerFrameSource = createContext("");

export function ServerFrame({ size, moment }: { size: Size; moment: boolean }) {
  const source = useContext(ServerFrameSource);
  const title = moment ? "The recording at this moment" : "First frame of the recording";
  const markup = source && `<iframe sandbox="" tabindex="-1" title="${title}" ${source}></iframe>`;
  return (
    <div
      class="replay-server-frame"
      aria-hidden="true"
      style={`--recorded-width: ${size.width}px; --recorded-height: ${size.height}px`}
      dangerouslySetInnerHTML={{ __html: markup }}
    />
  );
}
