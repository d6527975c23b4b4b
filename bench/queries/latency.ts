// The dashboard reads the query benchmark times: each case is one GET, requested sequentially and
// warm (a few unmeasured first), its client-side latency summarised as p50/p95, and its server-side
// one (the answer's `Server-Timing`, http/middleware.ts) as p95.
import { percentile } from "@/bench/stats.ts";

export type Group = "list" | "filter" | "kpi" | "insights" | "activity";

/**
 * p95 targets (docs/decisions.md "Performance budgets"): list pages and both summaries 20 ms,
 * the search filters (alone, and user + signals) and activity and timeline 50 ms, insights 100 ms.
 */
export const TARGET_MS: Record<Group, number> = {
  list: 20,
  filter: 50,
  kpi: 20,
  insights: 100,
  activity: 50,
};

export interface Case {
  name: string;
  group: Group;
  /** Path and query, e.g. `/api/sessions?sort=duration`. */
  path: string;
}

export interface CaseResult extends Case {
  p50: number;
  p95: number;
  max: number;
  /** p95 of the server's own time (`Server-Timing: app;dur=`). */
  serverP95: number;
  rows: number | null;
  errors: string[];
  /** Summed `Execution Time` of the case's statements under EXPLAIN ANALYZE (null: not known). */
  sqlMs: number | null;
  /** The same requests with ingest running in the background (null: not measured). */
  underIngest: { p50: number; p95: number; serverP95: number } | null;
}

export interface Client {
  baseUrl: string;
  cookie: string;
}

export async function getJson(client: Client, path: string): Promise<unknown> {
  return (await fetchJson(client, path)).body;
}

/** The answer's JSON and the server's own time for it. */
async function fetchJson(client: Client, path: string) {
  const res = await fetch(`${client.baseUrl}${path}`, { headers: { cookie: client.cookie } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 200)}`);
  const serverMs = Number(/\bapp;dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "")?.[1]);
  return { body: JSON.parse(text) as unknown, serverMs };
}

/** The cursor that starts `depth` rows into a list, walked 100 rows per page. */
export async function cursorAt(client: Client, path: string, depth: number): Promise<string> {
  const sep = path.includes("?") ? "&" : "?";
  let cursor: string | null = null;
  for (let walked = 0; walked < depth; walked += 100) {
    const page = await getJson(
      client,
      `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    ) as { nextCursor: string | null };
    if (!page.nextCursor) throw new Error(`${path}: the list ends before ${depth} rows`);
    cursor = page.nextCursor;
  }
  return cursor!;
}

export async function timeCase(
  client: Client,
  c: Case,
  requests: number,
  warmup = 3,
): Promise<CaseResult> {
  const latencies: number[] = [];
  const serverLatencies: number[] = [];
  const errors = new Set<string>();
  let rows: number | null = null;
  for (let i = 0; i < warmup + requests; i++) {
    const started = performance.now();
    try {
      const { body, serverMs } = await fetchJson(client, c.path) as {
        body: { data?: unknown[]; sessions?: unknown[] };
        serverMs: number;
      };
      const elapsed = performance.now() - started;
      if (i >= warmup) {
        latencies.push(elapsed);
        serverLatencies.push(serverMs);
      }
      rows = (body.data ?? body.sessions)?.length ?? null;
    } catch (error) {
      errors.add(String(error instanceof Error ? error.message : error));
    }
  }
  latencies.sort((a, b) => a - b);
  serverLatencies.sort((a, b) => a - b);
  return {
    ...c,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: latencies.at(-1) ?? NaN,
    serverP95: percentile(serverLatencies, 95),
    rows,
    errors: [...errors],
    sqlMs: null,
    underIngest: null,
  };
}

export const overTarget = (r: CaseResult) => !(r.p95 <= TARGET_MS[r.group]);

/** The target: p95 under ingest within this factor of the quiet p95. */
export const UNDER_INGEST_FACTOR = 2;

/** p95 under ingest over the quiet p95, client-side (null: not measured). */
export const ingestRatio = (r: CaseResult) => r.underIngest ? r.underIngest.p95 / r.p95 : null;

/** The same for the server's own time, which the targets are set in. */
export const serverIngestRatio = (r: CaseResult) =>
  r.underIngest ? r.underIngest.serverP95 / r.serverP95 : null;
