// Playhead: the served SDK bundle (sdk/build/build.ts, the minified classic script and the modules
// it loads on demand), default options, posting to a sink that answers as the service does.
import { buildSdk } from "@/sdk/build/build.ts";
import { DEFAULT_RECORDING } from "@/core/projects/recording_limits.ts";
import { PROFILE_DIR } from "./cpu_profile.ts";
import { gunzipSync } from "node:zlib";
import { fullSnapshotTimes, type Recorder, type SinkRequest, text } from "./recorder.ts";

export const PLAYHEAD_KEY = `sp_${"0".repeat(32)}`;

/** The decoded events of one ingest body. */
export function playheadEvents(
  req: SinkRequest,
): Promise<{ type: number; timestamp: number; data?: { source?: number } }[]> {
  const gzipped = req.headers.get("content-encoding") === "gzip";
  // A member per part (sdk/send/transport.ts): zlib reads them as one, DecompressionStream does not.
  const json = text(gzipped ? gunzipSync(req.body) : req.body);
  return Promise.resolve(JSON.parse(json).events ?? []);
}

/**
 * For the CI gate's own check (`BENCH_SDK_DOUBLE_BATCHES=1`): a page script, before the SDK, that
 * sends every ingest post twice. The SDK is unchanged; the gate must see twice the bytes and fail.
 */
const DOUBLE_BATCHES = `<script>(() => {
  const send = window.fetch;
  window.fetch = function (input, init) {
    if (String(input).includes("/api/ingest")) send.call(this, input, init).catch(() => {});
    return send.call(this, input, init);
  };
})();</script>`;

export async function playheadRecorder(
  opts: { doubleBatches?: boolean } = {},
): Promise<Recorder & { classicScript: string }> {
  const dir = await Deno.makeTempDir({ prefix: "playhead-bench-peers-" });
  try {
    const { classic, lazy } = await buildSdk({ outDir: dir, dev: PROFILE_DIR !== null });
    const files: Record<string, string> = {};
    for (const name of [classic, ...Object.values(lazy)]) {
      files[name] = await Deno.readTextFile(`${dir}/${name}`);
    }
    return {
      name: "playhead",
      label: "Playhead (this tree's SDK, defaults)",
      // The SDK's lazy modules load from `${endpoint}/sdk/`: the sink serves them there.
      head: `${
        opts.doubleBatches ? DOUBLE_BATCHES : ""
      }<script src="/sink/playhead/sdk/${classic}"></script>
<script>Playhead.init({ apiKey: "${PLAYHEAD_KEY}", endpoint: location.origin + "/sink/playhead" });</script>`,
      files: {},
      classicScript: files[classic],
      answer: (path) => {
        const file = /^\/sdk\/([^/?]+)/.exec(path)?.[1];
        if (file && files[file]) {
          return new Response(files[file], { headers: { "content-type": "text/javascript" } });
        }
        if (path.startsWith("/api/sdk/config")) return Response.json(DEFAULT_RECORDING);
        if (path.startsWith("/api/ingest")) return new Response(null, { status: 204 });
        return new Response("not found", { status: 404 });
      },
      snapshots: async (req) =>
        req.path.startsWith("/api/ingest") ? fullSnapshotTimes(await playheadEvents(req)) : [],
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
