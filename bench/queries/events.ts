// The events endpoint on one huge session: ~1 GB of stored batches (one incompressible 1 MiB blob
// stored N times, quick to seed), read whole over HTTP while the server's memory is sampled.
import type postgres from "postgres";
import { machineBusySeconds, processCpuSeconds } from "@/bench/cpu.ts";
import { ORGANIZATION_ID, projectId } from "./seed.ts";

export const EVENTS_SESSION_ID = "bench-events";
const BATCH_BYTES = 1 << 20;

/** Adds the session and `batches` MiB of batches to a seeded database. */
export async function seedEventsSession(sql: postgres.Sql, batches: number): Promise<void> {
  const blob = new Uint8Array(BATCH_BYTES);
  for (let at = 0; at < blob.length; at += 65_536) {
    crypto.getRandomValues(blob.subarray(at, at + 65_536));
  }
  const start = Date.now() - 3_600_000;
  await sql`INSERT INTO sessions (id, project_id, organization_id, external_id, url, started_at,
      ended_at, event_count, created_at)
    VALUES (${EVENTS_SESSION_ID}, ${projectId(0)}, ${ORGANIZATION_ID}, ${EVENTS_SESSION_ID},
      'https://shop.example/editor', ${new Date(start)}, ${new Date(start + batches * 1000)},
      ${batches * 500}, ${new Date(start)})`;
  await sql`INSERT INTO event_batches (project_id, session_external_id, session_created_at,
      first_ts, last_ts, event_count, digest, data)
    SELECT ${projectId(0)}, ${EVENTS_SESSION_ID}, ${new Date(start)}, ${start}::bigint + k * 1000,
      ${start}::bigint + k * 1000 + 999, 500, decode(md5('events:' || k), 'hex'), ${blob}
    FROM generate_series(0, ${batches - 1}) k`;
}

export interface EventsResult {
  storedBytes: number;
  batches: number;
  /** Each read: bytes and seconds, the server's CPU seconds and the machine's busy seconds in it. */
  runs: { bytes: number; seconds: number; status: number; serverCpu: number; machineCpu: number }[];
  /** VmRSS of the server before the first read, the highest sampled during, and VmHWM after. */
  rssBeforeMb: number;
  rssPeakSampledMb: number;
  hwmBeforeMb: number;
  hwmAfterMb: number;
}

/** Reads the events of the session `runs` times in a row, sampling the server's RSS every 50 ms. */
export async function measureEvents(
  baseUrl: string,
  cookie: string,
  serverPid: number,
  stored: { bytes: number; batches: number },
  runs: number,
): Promise<EventsResult> {
  const before = memory(serverPid);
  let peak = before.rss;
  const sampler = setInterval(() => peak = Math.max(peak, memory(serverPid).rss), 50);
  const results: EventsResult["runs"] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const [server, machine] = [processCpuSeconds(serverPid), machineBusySeconds()];
      const res = await fetch(`${baseUrl}/api/sessions/${EVENTS_SESSION_ID}/events`, {
        headers: { cookie },
      });
      let bytes = 0;
      for await (const chunk of res.body!) bytes += chunk.length;
      results.push({
        bytes,
        seconds: (performance.now() - started) / 1000,
        status: res.status,
        serverCpu: processCpuSeconds(serverPid) - server,
        machineCpu: machineBusySeconds() - machine,
      });
    }
  } finally {
    clearInterval(sampler);
  }
  const after = memory(serverPid);
  return {
    storedBytes: stored.bytes,
    batches: stored.batches,
    runs: results,
    rssBeforeMb: before.rss,
    rssPeakSampledMb: Math.max(peak, after.rss),
    hwmBeforeMb: before.hwm,
    hwmAfterMb: after.hwm,
  };
}

/** VmRSS and VmHWM of a process, in MB. */
export function memory(pid: number): { rss: number; hwm: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

export const EVENTS_BATCH_BYTES = BATCH_BYTES;
