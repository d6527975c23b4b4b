// `bench:sdk --ci`: the dashboard page visited for 30 s by Playhead and by plain rrweb at the same
// time (two browsers, so the step stays within CI's time), and the SDK's size. Fails when
// Playhead's bytes per minute exceed 1.2× plain rrweb's (a ratio within one run, so a busy machine
// does not fail it) or the classic script gzipped exceeds its budget; prints the figures.
import * as esbuild from "esbuild";
import { gzippedSize, SIZE_BUDGET } from "@/bench/sdk/size.ts";
import { figures } from "./figures.ts";
import { measureVisit } from "./measure.ts";
import { PAGES } from "./pages/mod.ts";
import { playheadRecorder } from "./playhead.ts";
import { rrwebRecorder } from "./rrweb.ts";
import { startPeerServer } from "./server.ts";
import { VISITS } from "./visits.ts";
import { loadAverage, log } from "./run.ts";

/** Playhead's bytes per minute may be at most this many times plain rrweb's. */
export const MAX_BYTES_RATIO = 1.2;
const SECONDS = 30;

/** Runs the gate; returns the process exit code. */
export async function runCiGate(): Promise<number> {
  const doubleBatches = Deno.env.get("BENCH_SDK_DOUBLE_BATCHES") === "1";
  const playhead = await playheadRecorder({ doubleBatches });
  const rrweb = await rrwebRecorder();
  await esbuild.stop();
  const size = gzippedSize(playhead.classicScript);
  const page = PAGES.find((p) => p.name === "dashboard")!;
  await using server = startPeerServer([page], [playhead, rrweb]);
  log(
    `dashboard page, ${SECONDS} s, Playhead and plain rrweb side by side` +
      `${doubleBatches ? " (BENCH_SDK_DOUBLE_BATCHES: every Playhead batch sent twice)" : ""}`,
  );
  const [ours, baseline] = (await Promise.all(
    [playhead, rrweb].map((r) => measureVisit(server, page, VISITS.dashboard, r, SECONDS)),
  )).map(figures);
  const ratio = ours.kbPerMinute / baseline.kbPerMinute;
  const problems = [
    ...(ratio > MAX_BYTES_RATIO
      ? [
        `Playhead sends ${
          ratio.toFixed(2)
        }× plain rrweb's bytes per minute (limit ${MAX_BYTES_RATIO}×)`,
      ]
      : []),
    ...(size > SIZE_BUDGET
      ? [`the classic script is ${size} B gzipped (budget ${SIZE_BUDGET} B)`]
      : []),
    ...(baseline.kbPerMinute === 0 || ours.kbPerMinute === 0 ? ["a recorder sent nothing"] : []),
    ...ours.pageErrors,
    ...baseline.pageErrors,
  ];
  console.log(`SDK budget (bench:sdk --ci), load average ${await loadAverage()}`);
  console.log(
    `  Playhead     ${ours.kbPerMinute.toFixed(1)} KB/min, ${
      ours.requestsPerMinute.toFixed(1)
    } requests/min`,
  );
  console.log(
    `  plain rrweb  ${baseline.kbPerMinute.toFixed(1)} KB/min, ${
      baseline.requestsPerMinute.toFixed(1)
    } requests/min`,
  );
  console.log(`  bytes ratio  ${ratio.toFixed(2)}× (limit ${MAX_BYTES_RATIO}×)`);
  console.log(`  SDK size     ${size} B gzipped -9 (budget ${SIZE_BUDGET} B)`);
  if (problems.length) {
    console.error(`FAILED:\n  ${problems.join("\n  ")}`);
    return 1;
  }
  console.log("within budget");
  return 0;
}
