// Public links viewed in a burst beside the rest of the service (bench/service/fair_share.ts
// `--only links`): the security probe's case, 16 parallel views of links (8 links × 2; a view is
// the link's page, then its events read whole) of one heavy recording (the corpus' editormd-full,
// 23 MB of JSON), while a health check, a normal ingest and another organization's sessions page
// are each asked again and again: their latency and answers during the burst. Three bursts: 8 new
// links viewed from 16 client addresses (X-Forwarded-For; the server runs with TRUST_PROXY=true),
// the same links again, and 8 other new links from one address (the probe as it was made).
import { openDb } from "@/db/client.ts";
import {
  cutSession,
  loadRecording,
  SDK_FLUSH_AT_EVENTS,
  SDK_FLUSH_INTERVAL_MS,
} from "@/bench/corpus_batches.ts";
import { gzipBytes, metadataFor } from "@/bench/workload.ts";
import { percentile } from "@/bench/stats.ts";

export interface LinkViewsSetup {
  url: string;
  databaseUrl: string;
  key: string;
  /** An OWNER of the recording's organization (links are made by ADMIN+). */
  ownerCookie: string;
  /** A member of another organization, whose sessions page is asked during the bursts. */
  otherCookie: string;
  /** One normal ingest request (a fresh session each time). */
  ingest(): Promise<Response>;
}

const RECORDING = "editormd-full";
const LINKS = 8;
const VIEWS_PER_LINK = 2;

/** Records the heavy session and makes `count` links to windows of it, from 0 s on every 5 s. */
export async function prepareLinks(setup: LinkViewsSetup, count: number): Promise<string[]> {
  const events = await loadRecording(RECORDING);
  const batches = cutSession(events, {
    flushIntervalMs: SDK_FLUSH_INTERVAL_MS,
    flushAtEvents: SDK_FLUSH_AT_EVENTS,
  });
  const sessionId = crypto.randomUUID();
  for (const [i, batch] of batches.entries()) {
    const body = JSON.stringify({
      sessionId,
      events: batch.events,
      ...(i === 0 ? { metadata: metadataFor(RECORDING) } : {}),
    });
    const res = await fetch(`${setup.url}/api/ingest`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "x-service-public-key": setup.key,
      },
      body: await gzipBytes(new TextEncoder().encode(body)),
    });
    if (res.status !== 204) throw new Error(`ingest of the recording: ${res.status}`);
  }
  const db = await openDb({ kind: "postgres", url: setup.databaseUrl, max: 1 });
  const { id } = await db.kysely.selectFrom("sessions").select("id")
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  await db.close();
  const links: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${setup.url}/api/sessions/${id}/shares`, {
      method: "POST",
      headers: { cookie: setup.ownerCookie, origin: setup.url, "content-type": "application/json" },
      body: JSON.stringify({ startMs: (i % LINKS) * 5_000 }),
    });
    if (res.status !== 201) throw new Error(`a link: ${res.status} ${await res.text()}`);
    links.push(new URL((await res.json()).url).pathname);
  }
  return links;
}

export const LINK_VIEWS_HEADER = [
  "| burst | views answered | all done in s | health max / p50 ms (answers) | ingest max / p50 ms (answers) | other org's page max / p50 ms (answers) |",
  "| ----- | -------------- | ------------: | ----------------------------- | ----------------------------- | --------------------------------------- |",
];

/** One burst of 16 views of `links` (8), `address` naming each view's client; a table row. */
export async function linkBurst(
  setup: LinkViewsSetup,
  label: string,
  links: string[],
  address: (view: number) => string,
): Promise<string> {
  let bursting = true;
  const loop = (ask: () => Promise<Response>) => {
    const times: number[] = [];
    const statuses: number[] = [];
    const done = (async () => {
      while (bursting) {
        const started = performance.now();
        let status = 0;
        try {
          const res = await ask();
          await res.body?.cancel();
          status = res.status;
        } catch { /* counted as 0 */ }
        times.push(performance.now() - started);
        statuses.push(status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    return { times, statuses, done };
  };
  const health = loop(() => fetch(`${setup.url}/api/health`));
  const ingest = loop(setup.ingest);
  const page = loop(() =>
    fetch(`${setup.url}/sessions`, { headers: { cookie: setup.otherCookie } })
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = [health, ingest, page].map((l) => l.times.length);
  const started = performance.now();
  const views = await Promise.all(
    Array.from({ length: LINKS * VIEWS_PER_LINK }, (_, n) => view(links[n % LINKS], address(n))),
  );
  const seconds = (performance.now() - started) / 1000;
  bursting = false;
  await Promise.all([health.done, ingest.done, page.done]);
  // What was asked once the burst had started (the first 300 ms are the quiet before it).
  const [h, i, p] = [health, ingest, page].map((l, k) => l.times.slice(before[k]));
  const [hs, is, ps] = [health, ingest, page].map((l, k) => l.statuses.slice(before[k]));
  return `| ${label} | ${counts(views)} | ${seconds.toFixed(2)} | ${span(h)} (${counts(hs)}) | ${
    span(i)
  } (${counts(is)}) | ${span(p)} (${counts(ps)}) |`;

  async function view(link: string, from: string): Promise<number> {
    const headers = { "x-forwarded-for": from };
    try {
      const shown = await fetch(`${setup.url}${link}`, { headers });
      await shown.body?.cancel();
      if (shown.status !== 200) return shown.status;
      const events = await fetch(`${setup.url}${link}/events`, { headers });
      await events.arrayBuffer();
      return events.status;
    } catch {
      return 0;
    }
  }
}

function span(times: number[]): string {
  if (!times.length) return "none";
  const sorted = [...times].sort((a, b) => a - b);
  return `${sorted.at(-1)!.toFixed(0)} / ${percentile(sorted, 50).toFixed(0)}`;
}

function counts(statuses: number[]): string {
  const map = new Map<number, number>();
  for (const s of statuses) map.set(s, (map.get(s) ?? 0) + 1);
  return [...map].sort(([a], [b]) => a - b).map(([s, n]) => `${n}× ${s || "failed"}`).join(", ");
}
