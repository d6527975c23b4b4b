// @openreplay/tracker (browser/openreplay.ts) against a sink answering as OpenReplay's ingest does:
// /v1/web/start hands out a session token, /v1/web/i takes the (binary) batches.
import { bundleBrowser } from "./bundle.ts";
import type { Recorder } from "./recorder.ts";

export async function openreplayRecorder(): Promise<Recorder> {
  const script = await bundleBrowser(new URL("./browser/openreplay.ts", import.meta.url));
  return {
    name: "openreplay",
    label: "@openreplay/tracker 19.0.1",
    head: `<script src="/rec/openreplay/openreplay.js"></script>`,
    files: { "openreplay.js": script },
    answer: (path) => {
      if (path.startsWith("/v1/web/start")) {
        return Response.json({
          token: "bench-token",
          userUUID: "00000000-0000-4000-8000-000000000001",
          sessionID: "1",
          projectID: "1",
          delay: 0,
          startTimestamp: Date.now(),
        });
      }
      return new Response(null, { status: 200 });
    },
    // OpenReplay's messages are its own binary encoding, not rrweb events: not read here.
    snapshots: null,
  };
}
