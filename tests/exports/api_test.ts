// A replay's export: every member downloads it, as JSON (the rrweb events with the
// session's facts) or as one HTML file; neither holds the tracked user; a session whose stored
// events weigh more than EXPORT_MAX_BYTES is refused with 413 before anything is written.
import assert from "node:assert/strict";
import { EventType, IncrementalSource } from "@rrweb/types";
import { createTestApp } from "@/tests/helpers/app.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { PERSON, sharesWorld, shopEvents, T0 } from "@/tests/helpers/shares_world.ts";
import type { TestEvent } from "@/tests/helpers/ingest.ts";
import { metaEvent, pageSnapshot } from "@/tests/helpers/recording_fixture.ts";
import { decodeBatch } from "@/recording/decode.ts";

Deno.test("export: format=json is the session's facts and every event in replay order, minus identify()", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const viewer = await w.member("VIEWER");
  const res = await w.api("GET", `/api/sessions/${w.sessionId}/export?format=json`, viewer.cookie);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json; charset=UTF-8");
  assert.match(
    res.headers.get("content-disposition") ?? "",
    /^attachment; filename="playhead-replay-.*\.json"$/,
  );
  assert.equal(res.headers.get("cache-control"), "no-store");
  const text = await res.text();
  const body = JSON.parse(text);
  assert.equal(body.session.id, w.sessionId);
  assert.equal(body.session.duration, 100_000);
  const expected = shopEvents().flat().filter((e) => e.type !== EventType.Custom);
  assert.deepEqual(
    body.events.map((e: { timestamp: number }) => e.timestamp - T0),
    expected.map((e) => e.timestamp - T0),
  );
  for (const secret of [PERSON.name, PERSON.email, PERSON.plan, PERSON.userId]) {
    assert.ok(!text.includes(secret), secret);
  }
});

Deno.test("export: format=html is one file with the player, its props and every batch, and no tracked user", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const res = await w.api("GET", `/api/sessions/${w.sessionId}/export?format=html`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=UTF-8");
  assert.match(res.headers.get("content-disposition") ?? "", /filename="playhead-replay-.*\.html"/);
  const html = await res.text();
  assert.match(
    html,
    /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/,
  );
  assert.equal(html.match(/<script type="application\/octet-stream" data-batch=/g)?.length, 5);
  assert.match(html, /<script type="application\/json" id="playhead-export">/);
  // Nothing in it points anywhere: no src or href attribute, no http(s) URL but the recording's own.
  assert.ok(!/\s(src|href)=/.test(html.replace(/<script>[\s\S]*<\/script>/, "")));
  for (
    const secret of [
      PERSON.name,
      PERSON.email,
      PERSON.plan,
      PERSON.userId,
      "Hidden Org Name",
      "Secret Project Name",
    ]
  ) {
    assert.ok(!html.includes(secret), secret);
  }
});

Deno.test("export: over EXPORT_MAX_BYTES of stored events is 413 with a clear message; at it, the file", async () => {
  await using probe = await createTestApp();
  const p = await sharesWorld(probe);
  const stored = (await p.db.selectFrom("event_batches")
    .select((eb) => eb.fn.sum<number>(eb.fn("octet_length", ["data"])).as("bytes"))
    .executeTakeFirstOrThrow()).bytes;
  // Both sessions' batches are in the table; the exported one's are its first five.
  const mine = (await p.db.selectFrom("event_batches").innerJoin(
    "sessions",
    (j) => j.onRef("sessions.external_id", "=", "event_batches.session_external_id"),
  ).where("sessions.id", "=", p.sessionId)
    .select((eb) => eb.fn.sum<number>(eb.fn("octet_length", ["event_batches.data"])).as("bytes"))
    .executeTakeFirstOrThrow()).bytes;
  assert.ok(Number(mine) > 0 && Number(mine) < Number(stored));
  for (
    const [limit, status] of [[Number(mine) - 1, 413], [Number(mine), 200], [Number(mine) + 1, 200]]
  ) {
    await using t = await createTestApp({ EXPORT_MAX_BYTES: String(limit) });
    const w = await sharesWorld(t);
    // The same recording, so the same stored bytes (gzip is deterministic).
    for (const format of ["json", "html"]) {
      const res = await w.api("GET", `/api/sessions/${w.sessionId}/export?format=${format}`);
      assert.equal(res.status, status, `${format} at limit ${limit}`);
      if (status === 413) {
        const body = await res.json();
        assert.equal(body.kind, "payload_too_large");
        assert.match(body.message, /MiB, over the .* MiB an export can hold/);
      } else await res.body?.cancel();
    }
  }
});

Deno.test("export: a format is required and known; another organization's session is 404", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  for (const query of ["", "?format=pdf"]) {
    const res = await w.api("GET", `/api/sessions/${w.sessionId}/export${query}`);
    assert.equal(res.status, 400, query);
    await res.body?.cancel();
  }
  const stranger = await signedInUser(t);
  const res = await w.api(
    "GET",
    `/api/sessions/${w.sessionId}/export?format=json`,
    stranger.cookie,
  );
  assert.equal(res.status, 404);
  await res.body?.cancel();
});

const RESET_URL = "https://shop.test/reset?email=ada%40example.test&reset_token=RT-5f1e9c77#top";
const at = (t: number, type: EventType, data: unknown): TestEvent => ({
  type,
  data,
  timestamp: T0 + t,
});
/** A page reached by a link naming the visitor, a request, an app's own event and a styled box. */
const resetRecording = (): TestEvent[][] => [[
  metaEvent(T0, RESET_URL, 1280, 800),
  pageSnapshot(T0 + 1, [], {
    style: 'background: image-set("https://cdn.shop.test/hero.png" 1x)',
  }),
  at(5, EventType.Custom, { tag: "service:url", payload: { url: RESET_URL, pathname: "/reset" } }),
  at(6, EventType.Custom, { tag: "checkout-step", payload: { step: 2 } }),
  at(7, EventType.Plugin, {
    plugin: "rrweb/network@1",
    payload: {
      requests: [{
        name: "https://shop.test/api/orders",
        method: "GET",
        initiatorType: "fetch",
        status: 200,
        startTime: 1,
        endTime: 2,
        timestamp: T0 + 7,
      }],
    },
  }),
  at(8, EventType.IncrementalSnapshot, {
    source: IncrementalSource.MouseMove,
    positions: [{ x: 1, y: 1, id: 3, timeOffset: 0 }],
  }),
]];

Deno.test("export: format=json has no requests or custom events unless include names them, says what it left out, and cuts page addresses to origin and path", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const id = await w.record(resetRecording());
  const exported = async (query: string) => {
    const res = await w.api("GET", `/api/sessions/${id}/export?format=json${query}`);
    assert.equal(res.status, 200, query);
    const text = await res.text();
    assert.ok(!text.includes("reset_token") && !text.includes("ref=mail"), query);
    return JSON.parse(text);
  };
  const { Meta, FullSnapshot, Custom, Plugin, IncrementalSnapshot } = EventType;
  const plain = await exported("");
  assert.deepEqual(plain.omitted, ["identify", "network", "custom"]);
  assert.deepEqual(plain.events.map((e: TestEvent) => e.type), [
    Meta,
    FullSnapshot,
    IncrementalSnapshot,
  ]);
  assert.equal(plain.events[0].data.href, "https://shop.test/reset");
  assert.equal(plain.session.url, "https://shop.test/products/42");
  const both = await exported("&include=network,custom");
  assert.deepEqual(both.omitted, ["identify"]);
  assert.deepEqual(both.events.map((e: TestEvent) => e.type), [
    Meta,
    FullSnapshot,
    Custom,
    Custom,
    Plugin,
    IncrementalSnapshot,
  ]);
  assert.deepEqual(both.events[2].data.payload, {
    url: "https://shop.test/reset",
    pathname: "/reset",
  });
  // Its requests as recorded (their secret parameters were replaced at capture).
  assert.equal(both.events[4].data.payload.requests[0].name, "https://shop.test/api/orders");
  const network = await exported("&include=network");
  assert.deepEqual(network.omitted, ["identify", "custom"]);
  assert.deepEqual(network.events.map((e: TestEvent) => e.type), [
    Meta,
    FullSnapshot,
    Plugin,
    IncrementalSnapshot,
  ]);
  for (const query of ["&include=identify", "&include=network,pdf"]) {
    const res = await w.api("GET", `/api/sessions/${id}/export?format=json${query}`);
    assert.equal(res.status, 400, query);
    await res.body?.cancel();
  }
});

Deno.test("export: format=html empties image-set() addresses and cuts the page's address in its events and markers", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const id = await w.record(resetRecording());
  const res = await w.api("GET", `/api/sessions/${id}/export?format=html`);
  assert.equal(res.status, 200);
  const html = await res.text();
  const batches = [...html.matchAll(/data-batch="[^"]*">([^<]*)<\/script>/g)].map((m) => m[1]);
  const events = JSON.stringify(await Promise.all(batches.map((b) => decodeBatch(b))));
  assert.ok(events.includes('"href":"https://shop.test/reset"'), events);
  assert.ok(events.includes('image-set(\\"about:invalid\\" 1x)'), events);
  assert.ok(!events.includes("hero.png"));
  const props = html.match(/id="playhead-export">([^<]*)<\/script>/)![1];
  assert.ok(props.includes('"url":"https://shop.test/reset"'), props);
  assert.ok(!html.includes("reset_token") && !html.includes("RT-5f1e9c77"));
});
