// CPU time of processes from /proc (Linux): the server, every postgres process, this process.
// Reported as seconds of CPU per second of wall time over a measured interval.

const TICKS_PER_SECOND = 100; // USER_HZ; 100 on every Linux we run on

/** utime + stime of one process in seconds, or 0 if it is gone. */
export function processCpuSeconds(pid: number | "self"): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name may hold spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds summed over all processes named `postgres` (postmaster, backends, workers). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const comm = Deno.readTextFileSync(`/proc/${entry.name}/comm`).trim();
      if (comm === "postgres") total += processCpuSeconds(Number(entry.name));
    } catch {
      // the process exited while we looked
    }
  }
  return total;
}

export interface CpuSample {
  at: number;
  server: number;
  postgres: number;
  bench: number;
}

export function sampleCpu(serverPid: number | null): CpuSample {
  return {
    at: performance.now(),
    server: serverPid === null ? 0 : processCpuSeconds(serverPid),
    postgres: postgresCpuSeconds(),
    bench: processCpuSeconds("self"),
  };
}

/** CPU seconds per wall second of each party between two samples. */
export function cpuRates(from: CpuSample, to: CpuSample) {
  const wall = (to.at - from.at) / 1000;
  return {
    server: (to.server - from.server) / wall,
    postgres: (to.postgres - from.postgres) / wall,
    bench: (to.bench - from.bench) / wall,
  };
}
