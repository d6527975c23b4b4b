// `deno task bench:storage [--seconds N] [--mib N] [--rounds N]`: the object store on a
// private Ceph RADOS Gateway (.ci/ceph-rgw.sh), all figures from one run:
// - ingest throughput inline vs with EVENTS_STORE (one process), and with two processes on one
//   database and store, rounds interleaved so load drift hits each alike; staged bytes sampled
//   during the store runs (offload keeping up) and the time to drain after each;
// - PostgreSQL bytes per recorded MB once offloaded (metadata only);
// - the events of a `--mib` MiB session read from the store and inline, MB/s and server memory;
//   from the store sealed (AES-256-GCM, migration 0033) and in clear, rounds interleaved: the
//   cost of sealing in events per second.
import { parseArgs } from "node:util";
import postgres from "postgres";
import { signSession } from "@/core/auth/token.ts";
import { drive } from "@/bench/drive.ts";
import { summarize } from "@/bench/stats.ts";
import {
  BENCH_AUTH_SECRET,
  type BenchServer,
  createBenchDatabase,
  startServer,
} from "@/bench/server.ts";
import { loadWorkloads, type PreparedSession, prepareSessions } from "@/bench/workload.ts";
import { EVENTS_SESSION_ID, measureEvents } from "@/bench/queries/events.ts";
import { insertMembership, insertUser } from "@/tests/helpers/factories.ts";
import { openDb } from "@/db/client.ts";
import { clearCopy } from "./sealed.ts";
import { perByteRates } from "./cipher.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    seconds: { type: "string", default: "10" },
    mib: { type: "string", default: "1024" },
    rounds: { type: "string", default: "2" },
    // Only the big session's events (and the cost of sealing), without the ingest runs.
    "events-only": { type: "boolean", default: false },
    concurrency: { type: "string", default: "8" },
    out: { type: "string" },
  },
});
const SECONDS = Number(args.seconds);
const MIB = Number(args.mib);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
const MODES = [
  "inline",
  "store",
  "store, 2 processes",
  "store, ingest on the 2nd process",
] as const;
const SCRIPT = new URL("../../.ci/ceph-rgw.sh", import.meta.url).pathname;
const log = (message: string) => console.error(`[bench:storage] ${message}`);
const out: string[] = [];
const say = (line = "") => {
  out.push(line);
  console.log(line);
};

// The cluster must hold the ingest runs and the big session; memstore keeps them in RAM.
const s3Dir = await Deno.makeTempDir({ prefix: "playhead-bench-s3-" });
await Deno.remove(s3Dir);
log("starting Ceph RGW");
const started = await new Deno.Command("bash", {
  args: [SCRIPT, "start", s3Dir],
  // The big session twice (sealed and in clear) besides the ingest runs.
  env: { CEPH_MEMSTORE_BYTES: String((2 * MIB + 3072) * 1024 * 1024) },
  stdout: "piped",
  stderr: "inherit",
}).output();
if (!started.success) Deno.exit(1);
const s3 = Object.fromEntries(
  new TextDecoder().decode(started.stdout).trim().split("\n").map((l) => {
    const at = l.indexOf("=");
    return [l.slice(0, at), l.slice(at + 1)];
  }),
);
const storeEnv = {
  EVENTS_STORE: `s3://playhead-bench-${Date.now()}/recordings`,
  AWS_ACCESS_KEY_ID: s3.S3_ACCESS_KEY_ID,
  AWS_SECRET_ACCESS_KEY: s3.S3_SECRET_ACCESS_KEY,
  AWS_REGION: s3.S3_REGION,
  AWS_ENDPOINT_URL_S3: s3.S3_ENDPOINT,
  EVENTS_STORE_KEY: crypto.getRandomValues(new Uint8Array(32)).toBase64(),
};

const inlineDb = await createBenchDatabase("playhead_bench_inline");
const storeDb = await createBenchDatabase("playhead_bench_store");
const servers: BenchServer[] = [];
try {
  // Only the API is measured: no islands build (bench/server.ts).
  const inline = await startServer(inlineDb.url, [], {}, { build: false });
  const store = await startServer(storeDb.url, [], storeEnv, { build: false });
  const store2 = await startServer(storeDb.url, [], storeEnv, { build: false });
  servers.push(inline, store, store2);
  const storeSql = postgres(storeDb.url, { max: 2, onnotice: () => {} });
  const inlineSql = postgres(inlineDb.url, { max: 2, onnotice: () => {} });

  say(
    `${new Date().toISOString()} · \`deno task bench:storage --seconds ${SECONDS} --mib ${MIB}${
      args["events-only"] ? " --events-only" : ""
    }\``,
  );
  say(`load average before: ${loadAverage()}`);
  say();

  const cookieFor = async (db: typeof storeDb) => {
    const conn = await openDb({ kind: "postgres", url: db.url, max: 1 });
    try {
      const user = await insertUser(conn.kysely, `bench-${db.name}@bench.test`);
      await insertMembership(conn.kysely, db.project.organizationId, user.id, "OWNER");
      await conn.kysely.updateTable("users")
        .set({ active_organization_id: db.project.organizationId }).where("id", "=", user.id)
        .execute();
      return `playhead_session=${await signSession(BENCH_AUTH_SECRET, {
        userId: user.id,
        version: 0,
      })}`;
    } finally {
      await conn.close();
    }
  };
  const cookies = { inline: await cookieFor(inlineDb), store: await cookieFor(storeDb) };

  // ---- ingest, with a dashboard read probing the first process all along ----
  const workloads = await loadWorkloads();
  for (const workload of args["events-only"] ? [] : workloads) {
    const rows: string[][] = [];
    const byMode = new Map<string, number[]>();
    // Untimed first: each process's first requests compile the ingest path.
    for (const [server, db] of [[inline, inlineDb], [store, storeDb], [store2, storeDb]] as const) {
      await sendTo([server], db.project.key, await prepareSessions(workload, 40), db.name, 2);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const mode of MODES) {
        const targets = mode === "inline"
          ? [inline]
          : mode === "store"
          ? [store]
          : mode === "store, 2 processes"
          ? [store, store2]
          : [store2];
        const db = mode === "inline" ? inlineDb : storeDb;
        const sessions = await prepareSessions(workload, workload.name === "corpus" ? 60 : 1500);
        log(`${workload.name} round ${round}: ${mode}`);
        let peakStaged = 0;
        const sampler = mode === "inline" ? null : setInterval(async () => {
          peakStaged = Math.max(peakStaged, await stagedBytes(storeSql));
        }, 500);
        const reads = probeReads(
          mode === "inline" ? inline : store,
          cookies[
            mode === "inline" ? "inline" : "store"
          ],
        );
        const run = await sendTo(targets, db.project.key, sessions, db.name);
        const latencies = await reads.stop();
        if (sampler) clearInterval(sampler);
        const s = summarize(run);
        let drain = "";
        if (mode !== "inline") {
          const t0 = performance.now();
          const left = await stagedBytes(storeSql);
          while (await stagedBytes(storeSql) > 0) await sleep(200);
          drain = `${(left / 1e6).toFixed(1)} MB left, drained in ${
            ((performance.now() - t0) / 1000).toFixed(1)
          } s`;
        }
        byMode.set(mode, [...(byMode.get(mode) ?? []), s.mbPerSecond]);
        rows.push([
          String(round),
          mode,
          s.rps.toFixed(0),
          s.mbPerSecond.toFixed(2),
          String(run.errors) + (run.failures.length ? ` (${run.failures.join("; ")})` : ""),
          `${pct(latencies, 50)} / ${pct(latencies, 95)} (${latencies.length})`,
          mode === "inline" ? "–" : (peakStaged / 1e6).toFixed(1),
          drain || "–",
        ]);
      }
    }
    say(`### ingest, ${workload.name} workload, concurrency ${CONCURRENCY}, ${SECONDS} s per run`);
    say();
    say(
      "| round | mode | requests/s | MB/s (gzip bodies) | errors | sessions list p50 / p95 ms (reads) | staged peak MB | after the run |",
    );
    say("| --- | --- | ---: | ---: | --- | ---: | ---: | --- |");
    for (const row of rows) say(`| ${row.join(" | ")} |`);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const base = mean(byMode.get("inline")!);
    say();
    say(
      `store / inline: **${(mean(byMode.get("store")!) / base).toFixed(2)}×**; ` +
        `two processes / inline: **${
          (mean(byMode.get("store, 2 processes")!) / base).toFixed(2)
        }×** (means of the rounds, MB/s)`,
    );
    say();
  }

  // ---- PostgreSQL bytes per recorded MB (of the ingest runs) ----
  if (!args["events-only"]) {
    await storeSql`VACUUM event_batches`;
    const recorded = Number(
      (await storeSql`SELECT COALESCE(sum(object_length), 0)::bigint AS n FROM event_batches`)[0].n,
    );
    const pgBytes = async () =>
      Number(
        (await storeSql`
        SELECT sum(pg_total_relation_size(c.oid))::bigint AS n FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'event_batches'::regclass`)[0].n,
      ) +
      Number((await storeSql`SELECT pg_total_relation_size('stored_objects')::bigint AS n`)[0].n);
    const afterVacuum = await pgBytes();
    await storeSql`VACUUM FULL event_batches`;
    const afterFull = await pgBytes();
    const rowBytes = Number(
      (await storeSql`
      SELECT COALESCE(sum(pg_column_size(b.*)), 0)::bigint AS n FROM event_batches b`)[0].n,
    );
    say("### PostgreSQL bytes per recorded MB, once offloaded");
    say();
    say(`recorded (gzip, in the store): ${(recorded / 1e6).toFixed(1)} MB`);
    say();
    say("| measure | bytes | per recorded MB |");
    say("| --- | ---: | ---: |");
    for (
      const [name, n] of [
        ["event_batches partitions + indexes + TOAST + stored_objects, after VACUUM", afterVacuum],
        ["the same after VACUUM FULL", afterFull],
        ["the rows themselves (pg_column_size)", rowBytes],
      ] as const
    ) {
      say(`| ${name} | ${n} | ${(n / recorded * 1e6 / 1e6 * 100).toFixed(2)} % |`);
    }
    say();
  }

  // ---- a big session's events ----
  const events: string[][] = [];
  const perSecond = new Map<string, number[]>();
  const perServerSecond = new Map<string, number[]>();
  for (
    const [name, sql, db, server, staged] of [
      ["store", storeSql, storeDb, store, true],
      ["inline", inlineSql, inlineDb, inline, false],
    ] as const
  ) {
    log(`seeding a ${MIB} MiB session (${name})`);
    const blob = await seedSession(sql, db.project, MIB, staged);
    let offload = "–";
    if (staged) {
      const t0 = performance.now();
      while (await stagedBytes(sql) > 0) await sleep(200);
      const s = (performance.now() - t0) / 1000;
      offload = `${(MIB * 1.048576 / s).toFixed(0)} MB/s (${s.toFixed(1)} s, two offloaders)`;
    }
    // The store's session is read sealed and in clear by turns, which goes first alternating.
    const use = staged ? await clearCopy(sql, storeEnv, EVENTS_SESSION_ID, blob) : null;
    const modes = staged
      ? Array.from({ length: 3 }, (_, i) => i % 2 ? ["sealed", "clear"] : ["clear", "sealed"])
        .flat()
      : ["", ""];
    for (const mode of modes) {
      if (use) await use(mode as "sealed" | "clear");
      const result = await measureEvents(server.url, cookies[name], server.pid, {
        bytes: MIB << 20,
        batches: MIB,
      }, 1);
      for (const r of result.runs) {
        const where = mode ? `${name}, ${mode === "clear" ? "in clear (before)" : mode}` : name;
        perSecond.set(where, [...(perSecond.get(where) ?? []), MIB * 500 / r.seconds]);
        perServerSecond.set(where, [
          ...(perServerSecond.get(where) ?? []),
          MIB * 500 / r.serverCpu,
        ]);
        events.push([
          where,
          String(r.status),
          (r.bytes / 1e6).toFixed(0),
          (r.bytes / r.seconds / 1e6).toFixed(0),
          (MIB * 500 / r.seconds).toFixed(0),
          r.serverCpu.toFixed(2),
          r.machineCpu.toFixed(2),
          result.rssBeforeMb.toFixed(0),
          result.rssPeakSampledMb.toFixed(0),
          offload,
        ]);
      }
    }
    await use?.("sealed");
  }
  say(`### events of a ${MIB} MiB session (1 MiB batches of 500 events), read in turns`);
  say();
  say(
    "| where | status | MB sent | MB/s | events/s | server CPU s | machine busy s | RSS before MB | RSS peak MB | offload rate |",
  );
  say("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const row of events) say(`| ${row.join(" | ")} |`);
  say();
  const meanOf = (where: string, of = perSecond) => {
    const xs = of.get(where)!;
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  say(
    `sealed / in clear: **${
      (meanOf("store, sealed") / meanOf("store, in clear (before)")).toFixed(2)
    }×** events per second from the store (means of ${
      perSecond.get("store, sealed")!.length
    } reads each)`,
  );
  say();
  // What the server alone spends: the store and the client share this host's two cores with it.
  say(
    `events per second of the server's CPU, sealed / in clear: **${
      (meanOf("store, sealed", perServerSecond) /
        meanOf("store, in clear (before)", perServerSecond)).toFixed(2)
    }×**`,
  );
  const rates = await perByteRates();
  say(
    `per byte, in this process: a sealed batch opens at ${rates.open.toFixed(0)} MB/s (WebCrypto ` +
      `AES-256-GCM), the events answer's base64 and UTF-8 run at ${rates.base64.toFixed(0)} MB/s`,
  );
  say();
  say(`load average after: ${loadAverage()}`);
  await storeSql.end();
  await inlineSql.end();
} finally {
  for (const server of servers) await server.stop();
  await inlineDb.drop();
  await storeDb.drop();
  await new Deno.Command("bash", { args: [SCRIPT, "stop", s3Dir], stdout: "null", stderr: "null" })
    .output();
}
if (args.out) await Deno.writeTextFile(args.out, out.join("\n") + "\n");

async function sendTo(
  targets: BenchServer[],
  key: string,
  sessions: PreparedSession[],
  database: string,
  seconds = SECONDS,
) {
  const clients = targets.map(() => Deno.createHttpClient({ poolMaxIdlePerHost: CONCURRENCY }));
  const index = new Map(sessions.map((s, i) => [s, i]));
  try {
    return await drive({
      sessions,
      requestCount: (s) => s.bodies.length,
      send: async (s, i) => {
        // Sessions alternate between the processes, as a load balancer would spread them.
        const at = index.get(s)! % targets.length;
        const body = s.bodies[i];
        try {
          const res = await fetch(`${targets[at].url}/api/ingest`, {
            method: "POST",
            client: clients[at],
            headers: {
              "content-type": "application/json",
              "content-encoding": "gzip",
              "x-service-public-key": key,
            },
            body,
          });
          const text = await res.text();
          if (res.status === 204) return { ok: true, events: s.eventCounts[i], bytes: body.length };
          return { ok: false, events: 0, bytes: 0, failure: `${res.status} ${text.slice(0, 200)}` };
        } catch (error) {
          return { ok: false, events: 0, bytes: 0, failure: String(error) };
        }
      },
    }, {
      concurrency: CONCURRENCY,
      maxRequests: 1e9,
      maxSeconds: seconds,
      serverPid: null,
      database,
    });
  } finally {
    for (const c of clients) c.close();
  }
}

/** GET /api/sessions one after another against `server` until stopped; latencies in ms. */
function probeReads(server: BenchServer, cookie: string) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/sessions?limit=50`, {
        headers: { cookie, origin: server.url },
      });
      await res.body?.cancel();
      if (res.ok) latencies.push(performance.now() - t0);
      await sleep(50);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies.sort((a, b) => a - b);
    },
  };
}

function pct(sorted: number[], p: number): string {
  if (!sorted.length) return "–";
  return sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)].toFixed(0);
}

async function stagedBytes(sql: postgres.Sql): Promise<number> {
  const [row] = await sql`SELECT COALESCE(sum(octet_length(data)), 0)::bigint AS n
    FROM event_batches WHERE staged`;
  return Number(row.n);
}

/** A session of `mib` incompressible 1 MiB batches (each `blob`, answered), staged or inline. */
async function seedSession(
  sql: postgres.Sql,
  project: { id: string; organizationId: string },
  mib: number,
  staged: boolean,
) {
  const blob = new Uint8Array(1 << 20);
  for (let at = 0; at < blob.length; at += 65_536) {
    crypto.getRandomValues(blob.subarray(at, at + 65_536));
  }
  const start = Date.now() - 3_600_000;
  await sql`INSERT INTO sessions (id, project_id, organization_id, external_id, url, started_at,
      ended_at, event_count, created_at)
    VALUES (${EVENTS_SESSION_ID}, ${project.id}, ${project.organizationId}, ${EVENTS_SESSION_ID},
      'https://shop.example/editor', ${new Date(start)}, ${new Date(start + mib * 1000)},
      ${mib * 500}, ${new Date(start)})`;
  // In slices of 64: one statement of 1 GiB would hold it all in PostgreSQL's memory at once.
  for (let from = 0; from < mib; from += 64) {
    await sql`INSERT INTO event_batches (project_id, session_external_id, session_created_at,
        first_ts, last_ts, event_count, digest, data, staged)
      SELECT ${project.id}, ${EVENTS_SESSION_ID}, ${new Date(start)}, ${start}::bigint + k * 1000,
        ${start}::bigint + k * 1000 + 999, 500, decode(md5('events:' || k), 'hex'), ${blob},
        ${staged ? true : null}::boolean
      FROM generate_series(${from}::int, ${Math.min(mib, from + 64) - 1}::int) k`;
  }
  return blob;
}

function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
