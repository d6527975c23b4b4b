// Plain rrweb record with gzip (browser/rrweb.ts), posting to a sink answering 204.
import { bundleBrowser } from "./bundle.ts";
import { fullSnapshotTimes, gunzip, type Recorder, text } from "./recorder.ts";

export async function rrwebRecorder(): Promise<Recorder> {
  const script = await bundleBrowser(new URL("./browser/rrweb.ts", import.meta.url));
  return {
    name: "rrweb",
    label: "plain rrweb 2.2.2 record + gzip",
    head: `<script src="/rec/rrweb/rrweb.js"></script>`,
    files: { "rrweb.js": script },
    answer: () => new Response(null, { status: 204 }),
    snapshots: async (req) => fullSnapshotTimes(JSON.parse(text(await gunzip(req.body))).events),
    flushCall: "globalThis.__benchFlush()",
  };
}
