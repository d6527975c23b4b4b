// GET /metrics (README "Metrics"): off without METRICS_TOKEN, 401 without the right bearer, and the
// Prometheus text exposition format with it; one ingest moves its counters by exactly one request
// and its bytes, and no label carries a session id, a key, an email or a URL.
import assert from "node:assert/strict";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { gzipBytes, METADATA, recordedEvents } from "@/tests/helpers/ingest.ts";

const TOKEN = "metrics-token-for-tests-0123456789abcdef";

interface Family {
  name: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Record<string, string>; count?: string }>;
}

async function scrape(t: TestApp, token: string | null = TOKEN): Promise<Response> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return await t.app.request("/metrics", { headers });
}

async function families(t: TestApp): Promise<{ text: string; parsed: Family[] }> {
  const res = await scrape(t);
  assert.equal(res.status, 200);
  const text = await res.text();
  return { text, parsed: parsePrometheusTextFormat(text) as Family[] };
}

/**
 * The label sets of a histogram's `_count` samples with their counts, read from the text (the
 * parser merges a histogram's labelled series into one).
 */
function histogramCounts(text: string, name: string): Array<[Record<string, string>, number]> {
  const line = new RegExp(`^${name}_count\\{(.*)\\} (\\S+)$`, "gm");
  return [...text.matchAll(line)].map(([, labels, count]) => [
    Object.fromEntries(
      [...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]),
    ),
    Number(count),
  ]);
}

/** The value of the sample of `name` whose labels include `labels` (0 when there is none). */
function value(parsed: Family[], name: string, labels: Record<string, string> = {}): number {
  const family = parsed.find((f) => f.name === name);
  const sample = family?.metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
  );
  return Number(sample?.value ?? 0);
}

async function ingest(
  t: TestApp,
  key: string,
  body: unknown,
): Promise<{ res: Response; wire: number }> {
  const wire = await gzipBytes(new TextEncoder().encode(JSON.stringify(body)));
  const res = await t.app.request("/api/ingest", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "content-encoding": "gzip",
      "x-service-public-key": key,
    },
    body: wire,
  });
  await res.body?.cancel();
  return { res, wire: wire.byteLength };
}

Deno.test("metrics: off (404) without METRICS_TOKEN", async () => {
  await using t = await createTestApp();
  const res = await scrape(t);
  assert.equal(res.status, 404);
  await res.body?.cancel();
});

Deno.test("metrics: 401 without the bearer token or with another one, nothing read", async () => {
  await using t = await createTestApp({ METRICS_TOKEN: TOKEN });
  for (const token of [null, "wrong", `${TOKEN}x`, TOKEN.slice(0, -1)]) {
    const res = await scrape(t, token);
    assert.equal(res.status, 401, String(token));
    assert.equal(res.headers.get("www-authenticate"), "Bearer");
    assert.doesNotMatch(await res.text(), /playhead_/);
  }
  const basic = await t.app.request("/metrics", { headers: { authorization: `Basic ${TOKEN}` } });
  assert.equal(basic.status, 401);
  await basic.body?.cancel();
});

Deno.test("metrics: Prometheus text; one ingest moves its counters by one request and its bytes", async () => {
  await using t = await createTestApp({ METRICS_TOKEN: TOKEN });
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, {
    organizationId: viewer.organizationId,
    network: true,
  });

  const res = await scrape(t);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  assert.equal(res.headers.get("cache-control"), "no-store");
  const first = parsePrometheusTextFormat(await res.text()) as Family[];
  const names = first.map((f) => f.name);
  for (
    const name of [
      "playhead_ingest_requests_total",
      "playhead_ingest_received_bytes_total",
      "playhead_ingest_stored_bytes_total",
      "playhead_ingest_events_total",
      "playhead_ingest_network_requests_dropped_total",
      "playhead_ingest_decode_seconds",
      "playhead_ingest_decode_jobs",
      "playhead_store_requests_total",
      "playhead_http_request_duration_seconds",
      "playhead_db_share_waits_total",
      "playhead_db_share_busy_total",
      "playhead_cleanup_runs_total",
      "playhead_cleanup_deleted_rows_total",
      "playhead_active_sessions",
    ]
  ) assert.ok(names.includes(name), `${name} in ${names}`);
  assert.equal(value(first, "playhead_ingest_requests_total", { status: "204" }), 0);

  // and a malformed network request: left out and counted, its batch kept
  const badRequest = {
    type: 6,
    timestamp: Date.now() - 20_000,
    data: { plugin: "rrweb/network@1", payload: { requests: [{ name: "x", status: "500" }] } },
  };
  const events = [...recordedEvents(12, Date.now() - 20_000), badRequest];
  const sessionId = crypto.randomUUID();
  const sent = await ingest(t, project.key, {
    sessionId,
    events,
    metadata: METADATA,
  });
  assert.equal(sent.res.status, 204);
  const stored = await t.db.kysely.selectFrom("event_batches").select("data")
    .executeTakeFirstOrThrow();

  const scraped = await families(t);
  const after = scraped.parsed;
  const stored204 = { status: "204", outcome: "stored" };
  assert.equal(value(after, "playhead_ingest_requests_total", stored204), 1);
  assert.equal(value(after, "playhead_ingest_received_bytes_total"), sent.wire);
  assert.equal(value(after, "playhead_ingest_stored_bytes_total"), stored.data!.byteLength);
  assert.equal(value(after, "playhead_ingest_events_total"), 12);
  assert.equal(value(after, "playhead_ingest_network_requests_dropped_total"), 1);
  assert.equal(value(after, "playhead_active_sessions"), 1);
  const times = histogramCounts(scraped.text, "playhead_http_request_duration_seconds");
  assert.deepEqual(times.filter(([labels]) => labels.route === "/api/ingest"), [
    [{ route: "/api/ingest", method: "POST", status_class: "2xx" }, 1],
  ]);

  // The same batch again is a 204 that stores nothing: a request and its bytes, no events.
  const again = await ingest(t, project.key, { sessionId, events });
  assert.equal(again.res.status, 204);
  const invalid = await ingest(t, project.key, { sessionId: "not a uuid", events: [] });
  assert.equal(invalid.res.status, 400);
  const unknownKey = await ingest(t, `sp_${"0".repeat(32)}`, { sessionId: crypto.randomUUID() });
  assert.equal(unknownKey.res.status, 401);
  const last = (await families(t)).parsed;
  assert.equal(value(last, "playhead_ingest_requests_total", stored204), 2);
  assert.equal(
    value(last, "playhead_ingest_requests_total", { status: "400", outcome: "validation" }),
    1,
  );
  assert.equal(
    value(last, "playhead_ingest_requests_total", { status: "401", outcome: "auth" }),
    1,
  );
  assert.equal(value(last, "playhead_ingest_events_total"), 12, "the duplicate stored nothing");
  assert.equal(value(last, "playhead_ingest_stored_bytes_total"), stored.data!.byteLength);
  assert.equal(
    value(last, "playhead_ingest_received_bytes_total"),
    sent.wire + again.wire + invalid.wire,
    "the unknown key's body is never read",
  );
});

Deno.test("metrics: no label carries a session id, a key, an email or a URL", async () => {
  await using t = await createPagesApp({ METRICS_TOKEN: TOKEN });
  const email = "watched.person@example.test";
  const viewer = await signedInUser(t, { email });
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const externalId = crypto.randomUUID();
  const url = "https://secret-shop.test/checkout?token=abc123";
  const sent = await ingest(t, project.key, {
    sessionId: externalId,
    events: recordedEvents(5, Date.now() - 10_000),
    metadata: { ...METADATA, url, userIdentity: { userId: email, traits: { email } } },
  });
  assert.equal(sent.res.status, 204);
  const { id } = await t.db.kysely.selectFrom("sessions").select("id").executeTakeFirstOrThrow();

  // Requests that name them in their paths and queries: the API, a page, a 404.
  for (
    const path of [
      `/api/sessions/${id}`,
      `/api/sessions/${id}/events`,
      `/api/sessions?search=${externalId}`,
    ]
  ) {
    const res = await call(t.app, "GET", path, { cookie: viewer.cookie });
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
  }
  const replay = await page(t, `/replays/${id}`, { cookie: viewer.cookie });
  assert.equal(replay.status, 200);
  await replay.body?.cancel();
  const missing = await page(t, `/no/such/${externalId}`, { cookie: viewer.cookie });
  assert.equal(missing.status, 404);
  await missing.body?.cancel();

  const { text, parsed } = await families(t);
  for (const secret of [id, externalId, project.key, email, "secret-shop.test", "token=abc123"]) {
    assert.ok(!text.includes(secret), `${secret} appears in the metrics`);
  }
  const times = histogramCounts(text, "playhead_http_request_duration_seconds");
  const routes = new Set(times.map(([labels]) => labels.route));
  for (
    const route of [
      "/api/sessions/:id",
      "/api/sessions/:id/events",
      "/replays/:sessionId",
      "(none)",
    ]
  ) assert.ok(routes.has(route), `${route} in ${[...routes]}`);
  // Every label value is one of a few fixed shapes: a pattern, a number, a name.
  const labelled = [
    ...parsed.flatMap((family) => family.metrics.map((m) => m.labels ?? {})),
    ...times.map(([labels]) => labels),
  ];
  assert.ok(labelled.length > 20);
  for (const labels of labelled) {
    for (const [name, labelValue] of Object.entries(labels)) {
      assert.match(labelValue, /^[\w/:.()+\-]*$/, `${name}=${labelValue}`);
    }
  }
});
