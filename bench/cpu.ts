// CPU time from /proc (Linux): the server, this database's PostgreSQL processes, this process and
// the whole machine, reported as seconds of CPU per second of wall time over a measured interval.

const TICKS_PER_SECOND = 100; // USER_HZ; 100 on every Linux we run on
/** A client backend's title names its peer: "postgres: 15/main: user db 127.0.0.1(5432) idle". */
const CLIENT_BACKEND = /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]|::1\(\d+\)/;

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

/**
 * CPU seconds of the PostgreSQL processes that work for `database`: its client backends and the
 * shared ones (postmaster, WAL writer, checkpointer, …), not other databases' backends.
 */
export function postgresCpuSeconds(database: string): number {
  let total = 0;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if (Deno.readTextFileSync(`/proc/${entry.name}/comm`).trim() !== "postgres") continue;
      const title = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      const ours = title.split(" ").includes(database);
      if (ours || !CLIENT_BACKEND.test(title)) total += processCpuSeconds(Number(entry.name));
    } catch {
      // the process exited while we looked
    }
  }
  return total;
}

/** Busy CPU seconds of the whole machine (all cores), from the first line of /proc/stat. */
export function machineBusySeconds(): number {
  const [, ...ticks] = Deno.readTextFileSync("/proc/stat").split("\n")[0].trim().split(/\s+/);
  const [user, nice, system, _idle, _iowait, irq, softirq, steal] = ticks.map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

export interface CpuSample {
  at: number;
  server: number;
  postgres: number;
  bench: number;
  machine: number;
}

export function sampleCpu(serverPid: number | null, database: string): CpuSample {
  return {
    at: performance.now(),
    server: serverPid === null ? 0 : processCpuSeconds(serverPid),
    postgres: postgresCpuSeconds(database),
    bench: processCpuSeconds("self"),
    machine: machineBusySeconds(),
  };
}

export interface CpuRates {
  server: number;
  postgres: number;
  bench: number;
  /** Everything else on the machine: other people's processes competing for the same cores. */
  others: number;
}

/** CPU seconds per wall second of each party between two samples. */
export function cpuRates(from: CpuSample, to: CpuSample): CpuRates {
  const wall = (to.at - from.at) / 1000;
  const server = (to.server - from.server) / wall;
  const postgres = (to.postgres - from.postgres) / wall;
  const bench = (to.bench - from.bench) / wall;
  const machine = (to.machine - from.machine) / wall;
  return { server, postgres, bench, others: Math.max(0, machine - server - postgres - bench) };
}
