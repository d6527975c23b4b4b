// @datadog/browser-rum with replay (browser/datadog.ts) through `proxy` to a sink answering 202 as
// Datadog's intake does. Replay segments are multipart: a deflated JSON `segment` of records.
import { bundleBrowser } from "./bundle.ts";
import { gunzip, type Recorder, type SinkRequest, text } from "./recorder.ts";

/** Datadog's record type of a full snapshot (its RecordType.FullSnapshot). */
const DD_FULL_SNAPSHOT = 2;

async function snapshots(req: SinkRequest): Promise<number[]> {
  if (!decodeURIComponent(req.path).includes("/api/v2/replay")) return [];
  const form = await new Response(req.body as BodyInit, {
    headers: { "content-type": req.headers.get("content-type") ?? "" },
  }).formData();
  const segment = form.get("segment");
  if (!(segment instanceof Blob)) return [];
  const json = text(await gunzip(new Uint8Array(await segment.arrayBuffer()), "deflate"));
  const records = JSON.parse(json).records as { type: number; timestamp: number }[];
  return records.filter((r) => r.type === DD_FULL_SNAPSHOT).map((r) => r.timestamp);
}

export async function datadogRecorder(): Promise<Recorder> {
  const script = await bundleBrowser(new URL("./browser/datadog.ts", import.meta.url));
  return {
    name: "datadog",
    label: "@datadog/browser-rum 7.16.2 (replay on)",
    head: `<script src="/rec/datadog/datadog.js"></script>`,
    files: { "datadog.js": script },
    answer: () =>
      new Response("{}", { status: 202, headers: { "content-type": "application/json" } }),
    snapshots,
  };
}
