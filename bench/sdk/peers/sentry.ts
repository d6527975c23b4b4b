// @sentry/browser + replay (browser/sentry.ts) sending envelopes through `tunnel` to a sink that
// answers 200 as Sentry's envelope endpoint does.
import { bundleBrowser } from "./bundle.ts";
import { fullSnapshotTimes, gunzip, type Recorder, type SinkRequest, text } from "./recorder.ts";

/** The rrweb events of an envelope's replay_recording items (zlib-compressed or plain JSON). */
async function snapshots(req: SinkRequest): Promise<number[]> {
  const body = req.body;
  const lineEnd = (from: number) => {
    const at = body.indexOf(10, from);
    return at < 0 ? body.length : at;
  };
  let at = lineEnd(0) + 1; // envelope header
  const times: number[] = [];
  while (at < body.length) {
    const headerEnd = lineEnd(at);
    const header = JSON.parse(text(body.subarray(at, headerEnd)));
    const start = headerEnd + 1;
    const end = typeof header.length === "number" ? start + header.length : lineEnd(start);
    if (header.type === "replay_recording") {
      const payload = body.subarray(start, end);
      const split = payload.indexOf(10) + 1; // {"segment_id":n}\n, then the recording
      const recording = payload.subarray(split);
      const json = recording[0] === 0x5b
        ? text(recording)
        : text(await gunzip(recording, "deflate"));
      times.push(...fullSnapshotTimes(JSON.parse(json)));
    }
    at = end + 1;
  }
  return times;
}

export async function sentryRecorder(): Promise<Recorder> {
  const script = await bundleBrowser(new URL("./browser/sentry.ts", import.meta.url));
  return {
    name: "sentry",
    label: "@sentry/browser 11.12.0 + replayIntegration",
    head: `<script src="/rec/sentry/sentry.js"></script>`,
    files: { "sentry.js": script },
    answer: () => Response.json({}),
    snapshots,
  };
}
