// `deno run -A bench/service/fair_share.ts [--root DIR] [--label NAME] [--only SECTIONS]`: one
// caller degrading everyone, measured against the production server (main.ts from `--root`, by
// default this tree, so an older build can be measured by the same script; `--only` names the
// sections to run, comma-separated: health, bodies, throughput, links; all by default):
//  - health flood: 1,000 and 1,500 parallel GET /api/health, with one dashboard read and one ingest
//    sent in the middle: how each flood call is answered, and the read's and the ingest's time;
//  - large bodies: 8 and 16 parallel ~0.8 MiB gzip bodies that inflate to ~30 MiB, while a probe asks
//    for a 404 every 20 ms: the probe's longest wait, the bodies' statuses, the server's peak RSS;
//  - throughput: large bodies at concurrency 4 and SDK-sized ones at 32 for a fixed time;
//  - links: 16 parallel views of public links beside a health check, an ingest and another
//    organization's page (bench/service/link_views.ts; `--root` needs static/build there).
// Take /tmp/bench.lock around it; note `uptime`.
import { EventType, IncrementalSource } from "@rrweb/types";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { signSession } from "@/core/auth/token.ts";
import { openDb } from "@/db/client.ts";
import {
  insertMembership,
  insertOrganization,
  insertProject,
  insertUser,
} from "@/tests/helpers/factories.ts";
import { T0 } from "@/tests/helpers/times.ts";
import { BENCH_AUTH_SECRET, createBenchDatabase, startServer } from "@/bench/server.ts";
import { LINK_VIEWS_HEADER, linkBurst, prepareLinks } from "./link_views.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    root: { type: "string" },
    label: { type: "string", default: "this tree" },
    seconds: { type: "string", default: "12" },
    only: { type: "string", default: "health,bodies,throughput,links" },
  },
});
const SECONDS = Number(args.seconds);
const sections = new Set(args.only.split(","));
const log = (message: string) => console.error(`[fair_share] ${message}`);

const database = await createBenchDatabase("playhead_bench_fair");
const seed = await openDb({ kind: "postgres", url: database.url, max: 1 });
const viewer = await insertUser(seed.kysely, "viewer@bench.test");
await insertMembership(seed.kysely, database.project.organizationId, viewer.id, "VIEWER");
await seed.kysely.updateTable("users").set({
  active_organization_id: database.project.organizationId,
}).where("id", "=", viewer.id).execute();
// An OWNER makes the links; a member of another organization opens its sessions page meanwhile.
const owner = await insertUser(seed.kysely, "owner@bench.test");
await insertMembership(seed.kysely, database.project.organizationId, owner.id, "OWNER");
const otherOrg = await insertOrganization(seed.kysely, "Other");
await insertProject(seed.kysely, { organizationId: otherOrg.id, name: "Other" });
const other = await insertUser(seed.kysely, "other@bench.test");
await insertMembership(seed.kysely, otherOrg.id, other.id, "VIEWER");
for (
  const [userId, organizationId] of [
    [owner.id, database.project.organizationId],
    [other.id, otherOrg.id],
  ]
) {
  await seed.kysely.updateTable("users").set({ active_organization_id: organizationId })
    .where("id", "=", userId).execute();
}
await seed.close();
const cookieOf = async (userId: string) =>
  `playhead_session=${await signSession(BENCH_AUTH_SECRET, { userId, version: 0 })}`;
const cookie = await cookieOf(viewer.id);

log(`server from ${args.root ?? "this tree"}`);
// TRUST_PROXY: the links' bursts name their clients' addresses in X-Forwarded-For.
const server = await startServer(database.url, [], { TRUST_PROXY: "true" }, {
  root: args.root,
  build: sections.has("links"),
});
const key = database.project.key;
const lines: string[] = [];
const out = (line: string) => {
  lines.push(line);
  console.log(line);
};

try {
  out(`### ${args.label} (${new Date().toISOString()}, load ${loadAverage()})`);
  if (sections.has("health")) {
    out("");
    out("| health flood | health answers | dashboard read | ingest |");
    out("| -----------: | -------------- | -------------: | -----: |");
    for (const calls of [1000, 1500]) out(await healthFlood(calls));
  }
  if (sections.has("bodies")) {
    out("");
    out(
      "| large bodies | statuses | probe max wait ms | probe p50 ms | probes | all answered in s | server peak RSS MiB |",
    );
    out(
      "| -----------: | -------- | ----------------: | -----------: | -----: | ----------------: | ------------------: |",
    );
    for (const parallel of [8, 16]) out(await largeBodies(parallel));
  }
  if (sections.has("throughput")) {
    out("");
    out("| throughput | concurrency | requests | req/s | decoded MB/s | statuses |");
    out("| ---------- | ----------: | -------: | ----: | -----------: | -------- |");
    out(await throughput("large (0.8 MiB gzip → 30 MiB)", largeBody, 4));
    out(await throughput("SDK-sized (25 KB JSON)", lightBody, 32));
  }
  if (sections.has("links")) await linkViews();
} finally {
  await server.stop();
  await database.drop();
}

async function linkViews() {
  const setup = {
    url: server.url,
    databaseUrl: database.url,
    key,
    ownerCookie: await cookieOf(owner.id),
    otherCookie: await cookieOf(other.id),
    ingest: () => post(lightBody()),
  };
  const links = await prepareLinks(setup, 16);
  out("");
  for (const line of LINK_VIEWS_HEADER) out(line);
  const many = (n: number) => `10.0.0.${n + 1}`;
  out(await linkBurst(setup, "8 new links × 2, from 16 addresses", links.slice(0, 8), many));
  out(await linkBurst(setup, "the same again (cached after)", links.slice(0, 8), many));
  out(
    await linkBurst(
      setup,
      "8 other new links × 2, from one address",
      links.slice(8),
      () => "10.0.1.1",
    ),
  );
  out(`(load ${loadAverage()} at the end)`);
}

async function healthFlood(calls: number): Promise<string> {
  const statuses = new Map<number, number>();
  const flood = Array.from({ length: calls }, async () => {
    try {
      const res = await fetch(`${server.url}/api/health`);
      await res.body?.cancel();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    } catch {
      statuses.set(0, (statuses.get(0) ?? 0) + 1);
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const read = timed(() => fetch(`${server.url}/api/sessions/summary`, { headers: { cookie } }));
  const ingest = timed(() => post(lightBody()));
  await Promise.all(flood);
  const [r, i] = await Promise.all([read, ingest]);
  const answers = [...statuses].sort().map(([s, n]) => `${n}× ${s || "failed"}`).join(", ");
  return `| ${calls} | ${answers} | ${r.ms.toFixed(0)} ms (${r.status}) | ${
    i.ms.toFixed(0)
  } ms (${i.status}) |`;
}

async function largeBodies(parallel: number): Promise<string> {
  const bodies = Array.from({ length: parallel }, (_, i) => largeBody(i));
  const waits: number[] = [];
  let flooding = true;
  let peakRss = 0;
  const probe = (async () => {
    while (flooding) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/nope`);
      await res.body?.cancel();
      waits.push(performance.now() - started);
      peakRss = Math.max(peakRss, rssMiB(server.pid));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const before = waits.length;
  const started = performance.now();
  const statuses = await Promise.all(bodies.map(async (body) => (await post(body)).status));
  const seconds = (performance.now() - started) / 1000;
  flooding = false;
  await probe;
  const during = waits.slice(before).sort((a, b) => a - b);
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return `| ${parallel} | ${[...counts].map(([s, n]) => `${n}× ${s}`).join(", ")} | ` +
    `${during.at(-1)!.toFixed(0)} | ${during[Math.floor(during.length / 2)].toFixed(1)} | ` +
    `${during.length} | ${seconds.toFixed(2)} | ${peakRss.toFixed(0)} |`;
}

async function throughput(
  name: string,
  make: (seed: number) => Body,
  concurrency: number,
): Promise<string> {
  const pool = Array.from({ length: 16 }, (_, i) => make(i + 100));
  const statuses = new Map<number, number>();
  let requests = 0, decoded = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: concurrency }, async (_, w) => {
    for (let n = w; performance.now() < end; n += concurrency) {
      const body = pool[n % pool.length];
      const res = await post(body);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      requests++;
      if (res.status === 204) decoded += body.decodedBytes;
    }
  }));
  return `| ${name} | ${concurrency} | ${requests} | ${(requests / SECONDS).toFixed(1)} | ` +
    `${(decoded / SECONDS / 1e6).toFixed(1)} | ${
      [...statuses].map(([s, n]) => `${n}× ${s}`).join(", ")
    } |`;
}

async function post(body: Body) {
  const res = await fetch(`${server.url}/api/ingest`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-service-public-key": key,
      "content-encoding": "gzip",
    },
    body: wireOf(body),
  });
  await res.body?.cancel();
  return res;
}

async function timed(request: () => Promise<Response>) {
  const started = performance.now();
  const res = await request();
  await res.body?.cancel();
  return { ms: performance.now() - started, status: res.status };
}

// Bodies: two gzip members (gzip readers decode members one after another): a tiny head holding
// the session id, gzipped per request so each is a new batch, and the rest, gzipped once.
interface Body {
  tail: Uint8Array;
  decodedBytes: number;
}

function wireOf(body: Body, sessionId = crypto.randomUUID()): Uint8Array<ArrayBuffer> {
  const head = gzipSync(new TextEncoder().encode(`{"sessionId":"${sessionId}",`));
  const out = new Uint8Array(head.byteLength + body.tail.byteLength);
  out.set(head);
  out.set(body.tail, head.byteLength);
  return out;
}

function encodeBody(events: unknown[]): Body {
  const rest = new TextEncoder().encode(
    JSON.stringify({
      events,
      metadata: {
        url: "https://shop.test/",
        referrer: "",
        userAgent: "Mozilla/5.0 (bench)",
        screenWidth: 1280,
        screenHeight: 800,
        language: "en",
      },
    }).slice(1),
  );
  return { tail: new Uint8Array(gzipSync(rest)), decodedBytes: rest.byteLength + 52 };
}

/** ~30 MiB of JSON in 100 events that gzip to ~0.8 MiB (DOM-like text repeats within the window). */
function largeBody(seed: number) {
  let x = seed * 7919 + 1;
  const rand = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const events = Array.from({ length: 100 }, (_, i) => {
    const block = Array.from({ length: 8192 }, () => "abcdefghijklmnop<>/= "[rand() % 21]).join("");
    return {
      type: EventType.IncrementalSnapshot,
      timestamp: T0 + i,
      data: { source: IncrementalSource.Mutation, text: block.repeat(39) },
    };
  });
  events.unshift({
    type: EventType.Meta,
    timestamp: T0 - 1,
    data: { source: 0, text: "meta" },
  });
  return encodeBody(events);
}

/** What the SDK sends most: ~25 KB of JSON in 40 small events. */
function lightBody(seed = 0) {
  const events = Array.from({ length: 40 }, (_, i) => ({
    type: EventType.IncrementalSnapshot,
    timestamp: T0 + i,
    data: {
      source: IncrementalSource.MouseInteraction,
      id: seed * 100 + i,
      x: i * 3,
      y: i * 7,
      text: "x".repeat(500),
    },
  }));
  return encodeBody(events);
}

function rssMiB(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}
