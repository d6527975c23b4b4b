// The /metrics readings that come from elsewhere than an ingest's answer: a large body's time in
// the decode workers, a cleanup run and its rows, and, with a store that never answers, the
// offload backlog and its age and the store's failed requests.
import assert from "node:assert/strict";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { frozenStore } from "@/tests/helpers/object_store.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import { OFFLOAD_MIN_WIRE_BYTES } from "@/api/ingest/ingest_body.ts";
import { T0 } from "@/tests/helpers/times.ts";

const TOKEN = "metrics-token-for-tests-0123456789abcdef";

type Family = { name: string; metrics: Array<{ value?: string; labels?: Record<string, string> }> };

async function scrape(t: TestApp): Promise<{ text: string; parsed: Family[] }> {
  const res = await t.app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  const text = await res.text();
  return { text, parsed: parsePrometheusTextFormat(text) as Family[] };
}

function value(parsed: Family[], name: string, labels: Record<string, string> = {}): number {
  const sample = parsed.find((f) => f.name === name)?.metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
  );
  return Number(sample?.value ?? 0);
}

/** The `_count` of an unlabelled histogram, read from the text. */
function histogramCount(text: string, name: string): number {
  return Number(text.match(new RegExp(`^${name}_count (\\S+)$`, "m"))?.[1] ?? 0);
}

Deno.test("metrics: a large body's decode is timed; a small one's is not", async () => {
  await using t = await createTestApp({ METRICS_TOKEN: TOKEN });
  const { key } = await insertProject(t.db.kysely);
  const small = await postIngest(t.app, {
    sessionId: crypto.randomUUID(),
    events: recordedEvents(3),
  }, { key });
  assert.equal(small.status, 204);
  assert.equal(histogramCount((await scrape(t)).text, "playhead_ingest_decode_seconds"), 0);

  // Text that does not compress: the body stays past the workers' threshold on the wire too.
  const noise = Array.from(
    { length: 3 * OFFLOAD_MIN_WIRE_BYTES },
    (_, i) => String.fromCharCode(97 + ((i * 7919) ^ (i >> 3)) % 26),
  ).join("");
  const body = JSON.stringify({
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(2), { type: 3, data: { noise }, timestamp: T0 + 5_000 }],
    metadata: METADATA,
  });
  assert.ok(body.length >= OFFLOAD_MIN_WIRE_BYTES);
  const large = await postIngest(t.app, null, { key, rawBody: body });
  assert.equal(large.status, 204);
  const { text, parsed } = await scrape(t);
  assert.equal(histogramCount(text, "playhead_ingest_decode_seconds"), 1);
  // Nothing is left in the workers once it is answered.
  assert.equal(value(parsed, "playhead_ingest_decode_jobs", { state: "queued" }), 0);
  assert.equal(value(parsed, "playhead_ingest_decode_jobs", { state: "decoding" }), 0);
});

Deno.test("metrics: a cleanup run is counted with the rows it deleted", async () => {
  await using t = await createTestApp({ METRICS_TOKEN: TOKEN, CRON_SECRET: "cron-secret" });
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  await insertSession(t.db.kysely, project, { createdAt: new Date(Date.now() - 9 * 86_400_000) });
  await insertSession(t.db.kysely, project); // kept

  const res = await call(t.app, "GET", "/api/cron/daily-cleanup", {
    headers: { authorization: "Bearer cron-secret" },
  });
  assert.equal(res.status, 200);
  const counts = await res.json();
  assert.equal(counts.sessions, 1);
  const { parsed } = await scrape(t);
  assert.equal(value(parsed, "playhead_cleanup_runs_total", { outcome: "ok" }), 1);
  assert.equal(value(parsed, "playhead_cleanup_runs_total", { outcome: "failed" }), 0);
  assert.equal(value(parsed, "playhead_cleanup_deleted_rows_total", { kind: "sessions" }), 1);
  assert.equal(
    value(parsed, "playhead_cleanup_deleted_rows_total", { kind: "invites" }),
    counts.invites,
  );
});

Deno.test("metrics: with a frozen store, the backlog waits in PostgreSQL and its reads fail", async () => {
  await using store = frozenStore({ EVENTS_STORE_TIMEOUT_MS: "100" });
  await using t = await createTestApp({ METRICS_TOKEN: TOKEN, ...store.env });
  const { key } = await insertProject(t.db.kysely);
  const before = await scrape(t);
  assert.equal(value(before.parsed, "playhead_offload_staged_batches"), 0);
  assert.equal(value(before.parsed, "playhead_offload_oldest_staged_age_seconds"), 0);

  const res = await postIngest(t.app, {
    sessionId: crypto.randomUUID(),
    events: recordedEvents(4),
  }, { key });
  assert.equal(res.status, 204);
  const received = await t.db.kysely.selectFrom("event_batches").select("created_at")
    .executeTakeFirstOrThrow();
  // The store does not answer: its request ends at its timeout, counted as failed.
  await assert.rejects(t.deps.store!.getRange("recordings/none.bin", 0, 10));

  const { parsed } = await scrape(t);
  assert.equal(value(parsed, "playhead_offload_staged_batches"), 1);
  const age = value(parsed, "playhead_offload_oldest_staged_age_seconds");
  assert.ok(age > 0 && age <= (Date.now() - received.created_at.getTime()) / 1000, String(age));
  assert.equal(
    value(parsed, "playhead_store_requests_total", { method: "GET", outcome: "failed" }),
    1,
  );
  assert.equal(value(parsed, "playhead_store_requests_total", { method: "GET", outcome: "ok" }), 0);
});
