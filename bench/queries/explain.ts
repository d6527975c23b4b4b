// Query plans of slow cases: the same core/ function the route calls runs in this process on a
// Kysely that records every statement, then each is replayed under EXPLAIN (ANALYZE, BUFFERS).
import { Kysely } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { activityQuery, timelineQuery, trackedUserListQuery } from "@/core/tracked_users/schema.ts";
import { sessionFilterQuery, sessionListQuery } from "@/core/sessions/schema.ts";
import { sessionList, sessionSummary } from "@/core/sessions/list.ts";
import { trackedUserActivity } from "@/core/tracked_users/activity.ts";
import { trackedUserList, trackedUserSummary } from "@/core/tracked_users/list.ts";
import { trackedUserTimeline } from "@/core/tracked_users/timeline.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { Db } from "@/db/client.ts";
import type { Database } from "@/db/schema.ts";
import { connectionShares, sharedDialect } from "@/db/connection_shares.ts";

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

type Deps = { db: Db };

/** The route's core call for a dashboard GET path (the subset the benchmark requests). */
function coreCall(path: string): (deps: Deps, viewer: Viewer) => Promise<unknown> {
  const url = new URL(path, "http://bench");
  const query = Object.fromEntries(url.searchParams);
  const p = url.pathname;
  let m: RegExpMatchArray | null;
  if (p === "/api/sessions") return (d, v) => sessionList(d, v, sessionListQuery.parse(query));
  if (p === "/api/sessions/summary") {
    return (d, v) => sessionSummary(d, v, sessionFilterQuery.parse(query));
  }
  if (p === "/api/tracked-users") {
    return (d, v) => trackedUserList(d, v, trackedUserListQuery.parse(query));
  }
  if (p === "/api/tracked-users/summary") return (d, v) => trackedUserSummary(d, v);
  if ((m = p.match(/^\/api\/tracked-users\/([^/]+)\/activity$/))) {
    const id = m[1];
    return (d, v) => trackedUserActivity(d, v, id, activityQuery.parse(query));
  }
  if ((m = p.match(/^\/api\/tracked-users\/([^/]+)\/timeline$/))) {
    const id = m[1];
    return (d, v) => trackedUserTimeline(d, v, id, timelineQuery.parse(query).range);
  }
  throw new Error(`no core call known for ${path}`);
}

/** Whether `explainPath` knows the route of `path`. */
export function explainable(path: string): boolean {
  try {
    coreCall(path);
    return true;
  } catch {
    return false;
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of every statement the route's core call issues, in order. */
export async function explainPath(databaseUrl: string, viewer: Viewer, path: string) {
  const statements: Statement[] = [];
  // int8 as numbers, as db/client.ts reads them, so the core code runs as in the server
  const client = postgres(databaseUrl, {
    max: 1,
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], parse: Number, serialize: String },
    },
  });
  const dialect = sharedDialect(new PostgresJSDialect({ postgres: client }), connectionShares(1));
  const kysely = new Kysely<Database>({
    dialect,
    log: (event) => {
      if (event.level === "query") {
        statements.push({ sql: event.query.sql, parameters: event.query.parameters });
      }
    },
  });
  try {
    await coreCall(path)(
      { db: { kysely, kind: "postgres", gate: dialect.gate, close: () => kysely.destroy() } },
      viewer,
    );
    const plans: { sql: string; parameters: readonly unknown[]; plan: string; ms: number }[] = [];
    for (const s of statements) {
      const rows = await client.unsafe(
        `EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`,
        s.parameters as postgres.ParameterOrJSON<never>[],
      );
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
      plans.push({ ...s, plan, ms });
    }
    return plans;
  } finally {
    await kysely.destroy();
  }
}
