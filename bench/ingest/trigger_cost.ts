// What the rollup triggers cost per ingest statement on PostgreSQL: the ingest write (the same
// statement the server runs, recorded from db/queries/ingest/write.ts) replayed under EXPLAIN
// ANALYZE, whose JSON reports the time of every trigger it fired.
//
//   deno run -A bench/ingest/trigger_cost.ts [--sessions 200]
//
// Uses the database `playhead_bench_triggers` (created, migrated, dropped). Each simulated session
// sends a first batch (new session, new identified tracked user) and two later ones (the session
// widens: the common case). Prints per statement kind the mean statement time and, per trigger,
// its mean time and share; read the shares, not the milliseconds, on a busy host.
import { Kysely } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { writeIngest } from "@/db/queries/ingest/write.ts";
import type { Database } from "@/db/schema.ts";
import { createBenchDatabase } from "@/bench/server.ts";

const { values } = parseArgs({ args: Deno.args, options: { sessions: { type: "string" } } });
const SESSIONS = Number(values.sessions ?? 200);

/** Thrown to roll back the recording run: the statement runs for real under EXPLAIN instead. */
class Rollback extends Error {}

interface Plan {
  "Execution Time": number;
  Triggers?: { "Trigger Name": string; Time: number; Calls: number }[];
}

const bench = await createBenchDatabase("playhead_bench_triggers");
const client = postgres(bench.url, { max: 1, onnotice: () => {} });
try {
  let captured: { sql: string; parameters: readonly unknown[] } | null = null;
  // Records the compiled statement and answers nothing: it is run under EXPLAIN below instead.
  const recorder = new Kysely<Database>({
    dialect: new PostgresJSDialect({ postgres: client }),
    log: (event) => {
      if (event.level === "query" && /^\s*WITH project/.test(event.query.sql)) {
        captured = event.query;
      }
    },
  });
  const totals = new Map<
    string,
    { statements: number; ms: number; triggers: Map<string, number> }
  >();
  const data = new Uint8Array(270);
  for (let s = 0; s < SESSIONS; s++) {
    const externalId = crypto.randomUUID();
    for (let b = 0; b < 3; b++) {
      const kind = b === 0 ? "first batch (new session, new user)" : "later batch (session grows)";
      const t0 = Date.now() - 60_000 + b * 5_000;
      await recorder.transaction().execute(async (trx) => {
        await writeIngest(trx, {
          projectKey: bench.project.key,
          newSessionId: crypto.randomUUID().replaceAll("-", "").slice(0, 24),
          externalId,
          metadata: b === 0
            ? {
              url: "https://shop.test/",
              referrer: "",
              userAgent: "bench",
              screenWidth: 1280,
              screenHeight: 800,
              language: "en",
              pathname: "/",
              browser: null,
              os: null,
              device: null,
            }
            : null,
          identity: b === 0
            ? {
              newTrackedUserId: crypto.randomUUID().slice(0, 24),
              userId: externalId,
              traitsJson: "{}",
            }
            : null,
          batch: {
            firstTs: t0,
            lastTs: t0 + 4_000,
            eventCount: 10,
            digest: crypto.getRandomValues(new Uint8Array(32)),
            data,
            sliceMarkersJson: null,
            markersJson: "[]",
            signals: null,
          },
        });
        throw new Rollback();
      }).catch((e) => {
        if (!(e instanceof Rollback)) throw e;
      });
      const statement = captured!;
      const [{ "QUERY PLAN": [plan] }] = await client.unsafe<{ "QUERY PLAN": Plan[] }[]>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
        statement.parameters as never[],
      );
      const entry = totals.get(kind) ?? { statements: 0, ms: 0, triggers: new Map() };
      entry.statements++;
      entry.ms += plan["Execution Time"];
      for (const t of plan.Triggers ?? []) {
        entry.triggers.set(
          t["Trigger Name"],
          (entry.triggers.get(t["Trigger Name"]) ?? 0) + t.Time,
        );
      }
      totals.set(kind, entry);
    }
  }
  const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
  console.log(`\n${SESSIONS} sessions × 3 batches, load average ${load}\n`);
  console.log("| statement | trigger | mean ms | share of the statement |");
  console.log("| --- | --- | ---: | ---: |");
  for (const [kind, entry] of totals) {
    const mean = entry.ms / entry.statements;
    console.log(`| ${kind} (${entry.statements}) | whole statement | ${mean.toFixed(3)} | 100 % |`);
    for (const [name, ms] of [...entry.triggers].sort()) {
      const share = (100 * ms / entry.ms).toFixed(1);
      console.log(`| | ${name} | ${(ms / entry.statements).toFixed(3)} | ${share} % |`);
    }
  }
} finally {
  await client.end();
  await bench.drop();
}
