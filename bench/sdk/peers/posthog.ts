// posthog-js (browser/posthog.ts) against a sink answering as PostHog Cloud does: remote config and
// flags that turn session recording on (endpoint /s/), 200 to events (/e/) and snapshots (/s/).
import { bundleBrowser } from "./bundle.ts";
import { FULL_SNAPSHOT, gunzip, type Recorder, type SinkRequest, text } from "./recorder.ts";

const CONFIG = {
  sessionRecording: { endpoint: "/s/" },
  supportedCompression: ["gzip", "gzip-js"],
  autocapture_opt_out: false,
  capturePerformance: false,
  heatmaps: false,
  surveys: false,
  siteApps: [],
};

/** PostHog's batches: JSON (gzipped or not) of events; a $snapshot's data is rrweb events. */
async function snapshots(req: SinkRequest): Promise<number[]> {
  if (!req.path.startsWith("/s/") || req.body.length === 0) return [];
  const gzipped = req.body[0] === 0x1f && req.body[1] === 0x8b;
  const parsed = JSON.parse(text(gzipped ? await gunzip(req.body) : req.body));
  const events = (Array.isArray(parsed) ? parsed : parsed.batch ?? [parsed]) as {
    properties?: { $snapshot_data?: { type: number; timestamp: number }[] };
  }[];
  return events.flatMap((e) => e.properties?.$snapshot_data ?? [])
    .filter((e) => e.type === FULL_SNAPSHOT).map((e) => e.timestamp);
}

export async function posthogRecorder(): Promise<Recorder> {
  const script = await bundleBrowser(new URL("./browser/posthog.ts", import.meta.url));
  return {
    name: "posthog",
    label: "posthog-js 1.449.2 (recorder bundled)",
    head: `<script src="/rec/posthog/posthog.js"></script>`,
    files: { "posthog.js": script },
    answer: (path) => {
      if (path.startsWith("/flags") || path.startsWith("/decide")) {
        return Response.json({
          ...CONFIG,
          flags: {},
          featureFlags: {},
          errorsWhileComputingFlags: false,
        });
      }
      if (path.startsWith("/array/")) return Response.json(CONFIG);
      return Response.json({ status: 1 });
    },
    snapshots,
  };
}
