// The page without a recorder: the baseline every ratio is taken against.
import type { Recorder } from "./recorder.ts";

export function noRecorder(): Recorder {
  return {
    name: "none",
    label: "no recorder",
    head: "",
    files: {},
    answer: () => new Response("no sink", { status: 404 }),
    snapshots: null,
  };
}
