// `BENCH_PEERS_PROFILE=<dir>`: each visit also takes a sampling CPU profile of the page's renderer
// (CDP Profiler), saved as <dir>/<page>-<recorder>.cpuprofile, and prints the functions with the
// most self time. The recorders are then built unminified, so the functions keep their names
// (which costs a little parse time: compare CPU figures only between runs made the same way).
import type { CDPSession } from "playwright-core";
import { type Profile, topFunctions } from "@/bench/ingest/cpu_profile.ts";

export const PROFILE_DIR = Deno.env.get("BENCH_PEERS_PROFILE") || null;

export interface VisitProfiler {
  stop(page: string, recorder: string): Promise<void>;
}

/** Starts sampling the session's renderer every 250 µs; null when no profile was asked for. */
export async function startVisitProfile(cdp: CDPSession): Promise<VisitProfiler | null> {
  if (!PROFILE_DIR) return null;
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 250 });
  await cdp.send("Profiler.start");
  return {
    async stop(page, recorder) {
      const { profile } = await cdp.send("Profiler.stop") as unknown as { profile: Profile };
      await Deno.mkdir(PROFILE_DIR, { recursive: true });
      await Deno.writeTextFile(
        `${PROFILE_DIR}/${page}-${recorder}.cpuprofile`,
        JSON.stringify(profile),
      );
      console.error(`[profile] ${page}, ${recorder}: self time by function`);
      for (const row of topFunctions(profile, 30)) {
        const frame = row.frame.replace(/https?:\/\/127\.0\.0\.1:\d+/, "");
        console.error(
          `  ${row.ms.toFixed(0).padStart(7)} ms ${(row.share * 100).toFixed(1)} % ${frame}`,
        );
      }
    },
  };
}
