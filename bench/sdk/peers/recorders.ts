// The recorders compared, in the order they run: none first (the baseline), then Playhead, plain
// rrweb, and the peers' own SDKs, each prepared (built or bundled) once.
import * as esbuild from "esbuild";
import { datadogRecorder } from "./datadog.ts";
import { noRecorder } from "./none.ts";
import { openreplayRecorder } from "./openreplay.ts";
import { playheadRecorder } from "./playhead.ts";
import { posthogRecorder } from "./posthog.ts";
import type { Recorder } from "./recorder.ts";
import { rrwebRecorder } from "./rrweb.ts";
import { sentryRecorder } from "./sentry.ts";

const PREPARE: Record<string, () => Recorder | Promise<Recorder>> = {
  none: noRecorder,
  playhead: playheadRecorder,
  rrweb: rrwebRecorder,
  posthog: posthogRecorder,
  sentry: sentryRecorder,
  openreplay: openreplayRecorder,
  datadog: datadogRecorder,
};

export const RECORDER_NAMES = Object.keys(PREPARE);

/** Builds the named recorders (all by default), in the order of RECORDER_NAMES. */
export async function prepareRecorders(names = RECORDER_NAMES): Promise<Recorder[]> {
  const unknown = names.filter((n) => !PREPARE[n]);
  if (unknown.length) throw new Error(`unknown recorder(s): ${unknown.join(", ")}`);
  try {
    const recorders = [];
    for (const name of RECORDER_NAMES.filter((n) => names.includes(n))) {
      recorders.push(await PREPARE[name]());
    }
    return recorders;
  } finally {
    await esbuild.stop();
  }
}
