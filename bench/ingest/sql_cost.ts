// PostgreSQL CPU per ingest statement, without HTTP or the server: the statement of
// db/queries/ingest/write.ts driven through the server's own Kysely client with the light
// workload's rows, and the CPU time (/proc) of this database's client backends only, so other
// databases, the shared WAL writer and the server's JavaScript do not blur a comparison of two
// versions of the statement or of its triggers.
//
//   deno run -A bench/ingest/sql_cost.ts [--sessions 400] [--concurrency 4] [--identified]
//
// --setup SQL: run on the database first (an experiment: drop a trigger, add an index …).
// --numbered: every batch carries its page's sequence numbers, as the SDK sends them, so each
// statement also claims them (migration 0031).
// --ceiling: the bare statement of ceiling.ts instead, for reference. --identified: every session's first batch carries a userIdentity (the light workload has none),
// so the tracked-user upsert and the tracked-user rollups run too. Uses `playhead_bench_sql_cost`
// (created, migrated, dropped). Prints backend CPU ms per statement and the wall time.
import { sql } from "kysely";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { openDb } from "@/db/client.ts";
import { writeIngest } from "@/db/queries/ingest/write.ts";
import { newRowId } from "@/core/ids.ts";
import { pathnameOf } from "@/core/ingest/markers.ts";
import { parseUserAgent } from "@/core/ingest/user_agent.ts";
import { createBenchDatabase } from "@/bench/server.ts";
import { loadWorkloads } from "@/bench/workload.ts";
import { ceilingRows, writeCeilingRow } from "./ceiling.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sessions: { type: "string", default: "400" },
    concurrency: { type: "string", default: "4" },
    identified: { type: "boolean", default: false },
    ceiling: { type: "boolean", default: false },
    setup: { type: "string" },
    numbered: { type: "boolean", default: false },
  },
});
const SESSIONS = Number(values.sessions);
/** Statements per CPU sample. */
const CHUNK = 100;

/** Time on a CPU in nanoseconds (/proc/<pid>/schedstat, finer than stat's 10 ms ticks). */
function schedstatNs(pid: number): number {
  return Number(Deno.readTextFileSync(`/proc/${pid}/schedstat`).split(" ")[0]);
}
const CONCURRENCY = Number(values.concurrency);

const light = (await loadWorkloads()).find((w) => w.name === "light")!;
const rows = await ceilingRows(light);
const bench = await createBenchDatabase("playhead_bench_sql_cost");
const db = await openDb({ kind: "postgres", url: bench.url, max: CONCURRENCY });
for (const statement of values.setup?.split(";").filter((s) => s.trim()) ?? []) {
  await sql.raw(statement).execute(db.kysely);
}
const bare = postgres(bench.url, { max: CONCURRENCY, onnotice: () => {} });
try {
  const sessions = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      externalId: crypto.randomUUID(),
      pageId: crypto.randomUUID(),
      rows: rows[i % rows.length],
    }));
  /** A page's batches numbered one after the other, as the SDK numbers them. */
  const claimOf = (batches: { eventCount: number }[], index: number) => {
    const seq = batches.slice(0, index).reduce((n, b) => n + b.eventCount, 0);
    return `{[${seq},${seq + batches[index].eventCount})}`;
  };
  const source = (list: ReturnType<typeof sessions>) => ({
    sessions: list,
    requestCount: (s: (typeof list)[number]) => s.rows.length,
    send: async (s: (typeof list)[number], index: number) => {
      const row = s.rows[index];
      if (values.ceiling) {
        await writeCeilingRow(bare, bench.project, s.externalId, row);
        return { ok: true, events: row.eventCount, bytes: row.data.byteLength };
      }
      // ceilingRows() adds the landing URL marker itself; the statement writes that one.
      const markers = JSON.parse(row.markersJson).filter((m: { kind: string }) => m.kind !== "url");
      await writeIngest(db.kysely, {
        projectKey: bench.project.key,
        newSessionId: newRowId(),
        externalId: s.externalId,
        metadata: row.metadata
          ? {
            ...row.metadata,
            pathname: pathnameOf(row.metadata.url),
            ...parseUserAgent(row.metadata.userAgent),
          }
          : null,
        identity: values.identified && index === 0
          ? { newTrackedUserId: newRowId(), userId: s.externalId, traitsJson: '{"plan":"pro"}' }
          : null,
        batch: {
          firstTs: row.firstTs,
          lastTs: row.lastTs,
          eventCount: row.eventCount,
          digest: row.digest,
          data: row.data,
          sliceMarkersJson: null,
          markersJson: JSON.stringify(markers),
          signals: null,
          range: values.numbered ? { pageId: s.pageId, claim: claimOf(s.rows, index) } : null,
        },
      });
      return { ok: true, events: row.eventCount, bytes: row.data.byteLength };
    },
  });
  /** Sends every request of `list`, `CONCURRENCY` sessions at a time; calls `tick` after each. */
  const run = async (list: ReturnType<typeof sessions>, tick = () => {}) => {
    const send = source(list).send;
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const session = list[next++];
        for (let i = 0; i < session.rows.length; i++) {
          await send(session, i);
          tick();
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  // Warm: open every pooled connection, prepare the statement on each, fill the caches.
  await run(sessions(CONCURRENCY * 4));
  const { rows: backends } = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = ${bench.name}`.execute(db.kysely);
  const pids = backends.map((r) => r.pid);
  const cpuNs = () => pids.reduce((sum, pid) => sum + schedstatNs(pid), 0);
  const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  const loadBefore = load();
  // CPU per chunk of statements: on a shared host the quieter chunks (the lower quartile) say
  // what the statement costs; the mean says what it cost this time.
  const chunks: number[] = [];
  let count = 0, chunkStart = cpuNs();
  const started = performance.now(), first = chunkStart;
  await run(sessions(SESSIONS), () => {
    if (++count % CHUNK !== 0) return;
    const now = cpuNs();
    chunks.push((now - chunkStart) / 1e6 / CHUNK);
    chunkStart = now;
  });
  const mean = (cpuNs() - first) / 1e6 / count;
  chunks.sort((a, b) => a - b);
  const q = (p: number) => chunks[Math.floor(p * (chunks.length - 1))].toFixed(3);
  console.log(
    `${count} statements (${SESSIONS} sessions × ${light.sessions[0].batches.length} batches` +
      `${values.identified ? ", identified" : ""}${values.ceiling ? ", ceiling" : ""}` +
      `${values.numbered ? ", numbered" : ""}) at ` +
      `concurrency ${CONCURRENCY}: backend CPU ms/statement p25 ${q(0.25)} median ${q(0.5)} ` +
      `mean ${mean.toFixed(3)}; wall ${((performance.now() - started) / count).toFixed(3)} ` +
      `ms/statement; load ${loadBefore} → ${load()}`,
  );
} finally {
  await db.close();
  await bare.end();
  await bench.drop();
}
