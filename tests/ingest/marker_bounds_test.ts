// No marker loses its batch: a page url with a long token, a long selector in a rage or dead click,
// a long identify trait, a large custom event, a long error message, a long pathname and a
// session of many pages are stored, their batch whole and their marker fields cut with a mark.
// The strings are random (incompressible) text: PostgreSQL compresses a long index row before it
// measures it, so repeated letters would hide the limit.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { CUT_MARK, MARKER_DATA_CHARS, PATHNAME_CHARS } from "@/core/ingest/limits.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import {
  customEvent,
  gunzipJson,
  METADATA,
  postIngest,
  recordedEvents,
  type TestEvent,
} from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

/** `length` random letters and digits. */
function randomText(length: number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/** `length` random CJK letters: three bytes each in UTF-8. */
function randomWide(length: number): string {
  const values = crypto.getRandomValues(new Uint16Array(length));
  return Array.from(values, (v) => String.fromCharCode(0x4e00 + (v % 0x5000))).join("");
}

async function ingestApp() {
  const t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  return Object.assign(t, { key: project.key });
}

type App = Awaited<ReturnType<typeof ingestApp>>;

/** Posts one batch and answers what was stored of its session: markers and the events whole. */
async function ingestAndRead(t: App, events: TestEvent[], metadata: object = METADATA) {
  const sessionId = crypto.randomUUID();
  const res = await postIngest(t.app, { sessionId, events, metadata }, { key: t.key });
  assert.equal(res.status, 204, await res.text());
  const db = t.db.kysely;
  const session = await db.selectFrom("sessions").selectAll()
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  const markers = await db.selectFrom("markers").select(["kind", "data"])
    .where("session_id", "=", session.id).orderBy("ts").orderBy("id").execute();
  const batches = await db.selectFrom("event_batches").select("data")
    .where("session_external_id", "=", sessionId).execute();
  assert.equal(batches.length, 1);
  assert.deepEqual(await gunzipJson(batches[0].data!), events, "the events are stored whole");
  return { session, markers };
}

/** The insights rollup's one key of `kind`. */
async function rollupKey(t: App, kind: string) {
  const { rows } = await sql<{ key: string }>`SELECT key FROM signal_rollups WHERE kind = ${kind}`
    .execute(t.db.kysely);
  assert.equal(rows.length, 1);
  return rows[0].key;
}

function markerOf(markers: { kind: string; data: unknown }[], kind: string) {
  const marker = markers.find((m) => m.kind === kind);
  assert.ok(marker, `a ${kind} marker is stored`);
  assert.ok(JSON.stringify(marker.data).length <= MARKER_DATA_CHARS);
  return marker.data as Record<string, unknown>;
}

/** A value cut to `max` characters, ending with the cut mark, that starts as the original. */
function assertCut(value: unknown, original: string, max: number) {
  assert.equal(typeof value, "string");
  const text = value as string;
  assert.ok(text.length <= max, `${text.length} chars, at most ${max}`);
  assert.ok(text.endsWith(CUT_MARK), "ends with the cut mark");
  assert.ok(original.startsWith(text.slice(0, -CUT_MARK.length)), "a prefix of the original");
}

Deno.test("ingest: a page url with a 3,000-character token keeps its batch; the url marker is cut", async () => {
  await using t = await ingestApp();
  const url = `https://shop.test/callback?code=${randomText(3000)}`;
  const { markers } = await ingestAndRead(t, [
    ...recordedEvents(3),
    customEvent("service:url", { url, pathname: "/callback" }, T0 + 5000),
  ]);
  const data = markerOf(markers.filter((m) => m.data !== null).slice(1), "url");
  assertCut(data.url, url, 2048);
  assert.equal(data.pathname, "/callback");
});

Deno.test("ingest: a rage click on an element with a long id keeps its batch; the selector is cut", async () => {
  await using t = await ingestApp();
  const selector = `button#${randomText(3000)}`;
  const { session, markers } = await ingestAndRead(t, [
    ...recordedEvents(3),
    customEvent("service:rage_click", { selector, text: "Buy", x: 1, y: 2, clicks: 4 }, T0 + 5000),
  ]);
  assertCut(markerOf(markers, "rage_click").selector, selector, 256);
  assert.equal(session.rage_click_count, 1);
});

Deno.test("ingest: a dead click on an element with a long class list keeps its batch", async () => {
  await using t = await ingestApp();
  const selector = `div > a.${randomWide(1200)}.${randomWide(1200)}`;
  const { session, markers } = await ingestAndRead(t, [
    ...recordedEvents(3),
    customEvent("service:dead_click", { selector, text: "More", x: 1, y: 2 }, T0 + 5000),
  ]);
  assertCut(markerOf(markers, "dead_click").selector, selector, 256);
  assert.equal(session.dead_click_count, 1);
});

Deno.test("ingest: an identify with a 3,000-character trait keeps its batch; the marker's trait is cut", async () => {
  await using t = await ingestApp();
  const token = randomText(3000);
  const { markers } = await ingestAndRead(t, [
    ...recordedEvents(3),
    customEvent("service:identity", { userId: "u1", traits: { token } }, T0 + 5000),
  ]);
  const data = markerOf(markers, "identity");
  assert.equal(data.userId, "u1");
  assertCut((data.traits as Record<string, unknown>).token, token, 1024);
});

Deno.test("ingest: a 4 KB custom event or a long tag keeps its batch; its marker is cut, whatever its shape", async () => {
  await using t = await ingestApp();
  const note = randomText(4096);
  const many = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`field${i}`, randomText(900)]),
  );
  const { markers } = await ingestAndRead(t, [
    ...recordedEvents(3),
    customEvent("service:checkout", { note }, T0 + 5000),
    customEvent("service:survey", many, T0 + 6000),
    customEvent(`service:${randomText(3000)}`, { n: 1 }, T0 + 7000),
  ]);
  assertCut(markerOf(markers, "checkout").note, note, 1024);
  // Forty fields of 900 characters are over the payload's bound even uncut: the marker says so.
  const survey = markerOf(markers, "survey");
  assert.equal(survey.truncated, true);
  // The kind is a column of two indexes: a 3,000-character tag is cut too.
  assert.ok(markers.some((m) => m.kind.length <= 64 && m.kind.endsWith(CUT_MARK)));
});

Deno.test("ingest: an error with a 4 KB message keeps its batch and rolls up under its cut message", async () => {
  await using t = await ingestApp();
  const message = randomWide(4096);
  const { session, markers } = await ingestAndRead(t, [
    ...recordedEvents(3),
    customEvent("service:error", { message }, T0 + 5000),
  ]);
  assertCut(markerOf(markers, "error").message, message, 200);
  assert.equal(session.error_count, 1);
  assertCut(await rollupKey(t, "error"), message, 200);
});

Deno.test("ingest: an error whose top frame is 1,000 wide characters keeps its batch; its group key is bounded", async () => {
  await using t = await ingestApp();
  const stack = `at f (https://shop.test/${randomWide(1000)}.js:1:2)\nat g (app.js:3:4)`;
  const { session } = await ingestAndRead(t, [
    ...recordedEvents(3),
    customEvent("service:error", { message: "boom", stack }, T0 + 5000),
  ]);
  assert.equal(session.error_count, 1);
  assert.ok((await rollupKey(t, "error")).length <= 500);
});

Deno.test("ingest: an identified visit of a page with a 3,000-character path and a rage click keeps its batch", async () => {
  await using t = await ingestApp();
  const pathname = `/${randomText(3000)}`;
  const url = `https://shop.test${pathname}`;
  const { session, markers } = await ingestAndRead(t, [
    ...recordedEvents(3),
    customEvent("service:url", { url, pathname }, T0 + 4000),
    customEvent(
      "service:rage_click",
      { selector: "button", text: "", x: 1, y: 2, clicks: 3 },
      T0 + 5000,
    ),
  ], { ...METADATA, url, userIdentity: { userId: "u-long-path", traits: {} } });
  assert.ok(session.tracked_user_id);
  for (const stored of session.url_pathnames) assert.ok(stored!.length <= PATHNAME_CHARS);
  assertCut(markerOf(markers, "url").pathname, pathname, PATHNAME_CHARS);
  assertCut(await rollupKey(t, "page"), pathname, PATHNAME_CHARS);
});

Deno.test("ingest: an identified session of 120 pages keeps every batch", async () => {
  await using t = await ingestApp();
  const sessionId = crypto.randomUUID();
  const metadata = { ...METADATA, userIdentity: { userId: "u-many-pages", traits: {} } };
  for (let page = 0; page < 120; page++) {
    const at = T0 + page * 10_000;
    const pathname = `/products/${randomText(40)}`;
    const events = page === 0 ? recordedEvents(3, at) : [
      customEvent("service:url", { url: `https://shop.test${pathname}`, pathname }, at),
      ...recordedEvents(3, at + 1000).slice(2),
    ];
    const res = await postIngest(t.app, { sessionId, events, metadata }, { key: t.key });
    assert.equal(res.status, 204, `page ${page}: ${await res.text()}`);
  }
  const session = await t.db.kysely.selectFrom("sessions").selectAll()
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  assert.equal(session.batch_ts.length, 120);
  assert.equal(session.url_pathnames.length, 120);
});
