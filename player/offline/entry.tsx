// The player of an exported replay (GET /api/sessions/:id/export?format=html): the dashboard's own
// ReplayPlayer island, rendered from the file itself. Its events are the file's
// `<script type="application/octet-stream" data-batch>` elements, answered to the player's one
// events request by a fetch that serves nothing else, so no request ever leaves the file; and
// decoding runs on the page (there is no second script to start a worker from).
import { render } from "preact";
import ReplayPlayer from "@/islands/ReplayPlayer.tsx";
import type { ExportProps } from "@/core/exports/props.ts";

/** The one URL the exported player asks for, answered from the file itself. */
const EXPORT_EVENTS_URL = "playhead-export:events";

function wireAnswer(): string {
  const batches = [...document.querySelectorAll<HTMLScriptElement>("script[data-batch]")]
    .map((element) => {
      const fields = JSON.parse(element.dataset.batch!);
      return JSON.stringify({ ...fields, data: element.textContent!.trim() });
    });
  return `{"batches":[${batches.join(",")}],"nextCursor":null}`;
}

const offlineFetch = (input: RequestInfo | URL): Promise<Response> => {
  const url = input instanceof Request ? input.url : String(input);
  if (url !== EXPORT_EVENTS_URL) {
    return Promise.reject(new TypeError("an exported replay makes no request"));
  }
  return Promise.resolve(
    new Response(wireAnswer(), { headers: { "content-type": "application/json" } }),
  );
};

globalThis.fetch = offlineFetch as typeof fetch;
// The loader then decodes on this page (player/load/loader.ts falls back when no worker starts).
(globalThis as { Worker?: unknown }).Worker = undefined;

const props: ExportProps = JSON.parse(document.getElementById("playhead-export")!.textContent!);
const slot = document.getElementById("replay")!;
slot.textContent = ""; // the "Loading…" line the file shows until this runs
render(
  <ReplayPlayer
    sessionId="export"
    eventsPath={EXPORT_EVENTS_URL}
    startedAt={props.startedAt}
    duration={props.duration}
    eventCount={props.eventCount}
    markers={props.markers}
    liveForMs={0}
    startAt={0}
    firstFrame={null}
    shared
  />,
  slot,
);
