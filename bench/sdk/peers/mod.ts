// `deno task bench:sdk --peers` (the comparison with the peers' own SDKs) and
// `deno task bench:sdk --ci` (the bytes and size gate of .ci/run); bench/sdk/mod.ts hands over here.
import { parseArgs } from "node:util";
import { runCiGate } from "./ci.ts";
import { RECORDER_NAMES } from "./recorders.ts";
import { runHeapComparison, runPeerComparison } from "./run.ts";

/** Runs what the arguments ask for; returns the exit code. */
export async function peersMain(argv: string[]): Promise<number> {
  const { values: args } = parseArgs({
    args: argv,
    options: {
      ci: { type: "boolean", default: false },
      peers: { type: "boolean", default: false },
      seconds: { type: "string", default: "120" },
      pages: { type: "string", default: "docs,dashboard,heavy" },
      recorders: { type: "string", default: RECORDER_NAMES.join(",") },
      results: { type: "string", default: "bench/RESULTS.md" },
      "no-write": { type: "boolean", default: false },
      "heap-minutes": { type: "string" },
    },
  });
  if (args.ci) return await runCiGate();
  if (args["heap-minutes"]) {
    return await runHeapComparison({
      minutes: Number(args["heap-minutes"]),
      pages: args.pages!.split(","),
      recorders: args.recorders!.split(","),
      results: args["no-write"] ? null : args.results!,
      command: `deno task bench:sdk ${argv.join(" ")}`,
    });
  }
  const rows = await runPeerComparison({
    seconds: Number(args.seconds),
    pages: args.pages!.split(","),
    recorders: args.recorders!.split(","),
    results: args["no-write"] ? null : args.results!,
    command: `deno task bench:sdk ${argv.join(" ")}`,
  });
  return rows.some((r) => r.pageErrors.length) ? 1 : 0;
}
