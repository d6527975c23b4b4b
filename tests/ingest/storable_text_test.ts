// Text PostgreSQL cannot store (lone surrogates, NULs) never fails a batch: it is
// made storable in every text/jsonb-bound field and the batch is accepted; the events themselves
// are stored byte-exact; absurd nesting is a 400 naming the path.
import assert from "node:assert/strict";
import fc from "fast-check";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { T0 } from "@/tests/helpers/times.ts";
import {
  customEvent,
  gunzipJson,
  METADATA,
  postIngest,
  recordedEvents,
} from "@/tests/helpers/ingest.ts";

const TRUNCATED_EMOJI = "Zoë 🎉".slice(0, 5); // "Zoë " + a lone high surrogate

async function ingestApp() {
  const t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  return Object.assign(t, { key: project.key, projectId: project.id });
}

async function storedFor(t: Awaited<ReturnType<typeof ingestApp>>, sessionId: string) {
  const db = t.db.kysely;
  const session = await db.selectFrom("sessions").selectAll().where("external_id", "=", sessionId)
    .executeTakeFirst();
  const user = session?.tracked_user_id
    ? await db.selectFrom("tracked_users").selectAll().where("id", "=", session.tracked_user_id)
      .executeTakeFirst()
    : undefined;
  const markers = session
    ? await db.selectFrom("markers").selectAll().where("session_id", "=", session.id)
      .orderBy("ts").execute()
    : [];
  const batches = await db.selectFrom("event_batches").selectAll()
    .where("session_external_id", "=", sessionId).execute();
  return { session, user, markers, batches };
}

/** No stored text holds a NUL or a lone surrogate. */
function assertStorable(value: unknown, label: string) {
  const text = JSON.stringify(value);
  assert.ok(!text.includes("\\u0000"), `${label}: NUL stored`);
  assert.ok(!/\\ud[89a-f][0-9a-f]{2}/i.test(text), `${label}: lone surrogate stored`);
}

Deno.test("ingest: NULs and lone surrogates in every text field are accepted and stored clean", async () => {
  await using t = await ingestApp();
  const sessionId = crypto.randomUUID();
  const events = [
    ...recordedEvents(3),
    customEvent(
      "service:url",
      { url: "https://shop.test/a\u0000b", pathname: "/a\u0000" },
      T0 + 5_000,
    ),
    customEvent(
      "service:identity",
      { userId: TRUNCATED_EMOJI, traits: { n: "\ud800" } },
      T0 + 6_000,
    ),
    customEvent("service:x\u0000y", { "k\u0000": ["\udfff", "\u0000"] }, T0 + 7_000),
    { type: 3, data: { text: "typed \u0000 and \ud83c" }, timestamp: T0 + 8_000 },
  ];
  const body = {
    sessionId,
    events,
    metadata: {
      url: "https://shop.test/\u0000start",
      referrer: "https://ref.test/\ud800",
      userAgent: "agent\u0000",
      screenWidth: 1,
      screenHeight: 1,
      language: "en\u0000\udc00",
      userIdentity: {
        userId: `u${TRUNCATED_EMOJI}\u0000`,
        traits: { name: TRUNCATED_EMOJI, "key\u0000": "value\u0000", nested: { deep: ["\ud800"] } },
      },
    },
    sliceMarkers: [{
      index: 0,
      reason: "nav\u0000",
      startedAt: T0,
      url: "https://shop.test/\ud800",
      pathname: "/\u0000",
    }],
  };
  const res = await postIngest(t.app, body, { key: t.key });
  assert.equal(res.status, 204, await res.text());
  const stored = await storedFor(t, sessionId);
  assert.equal(stored.session?.url, "https://shop.test/start");
  assert.equal(stored.session?.user_agent, "agent");
  assert.equal(stored.session?.referrer, "https://ref.test/\ufffd");
  assert.equal(stored.user?.external_id, "uZoë \ufffd");
  assert.deepEqual(stored.user?.traits, {
    name: "Zoë \ufffd",
    key: "value",
    nested: { deep: ["\ufffd"] },
  });
  assert.deepEqual(stored.markers.map((m) => [m.kind, m.data]), [
    ["url", { url: "https://shop.test/start", pathname: "/start" }],
    ["url", { url: "https://shop.test/ab", pathname: "/a" }],
    ["identity", { userId: "Zoë \ufffd", traits: { n: "\ufffd" } }],
    ["xy", { k: ["\ufffd", ""] }],
  ]);
  assertStorable(stored, "rows");
  // The events are stored exactly as sent, NULs and lone surrogates included.
  assert.equal(stored.batches.length, 1);
  assert.deepEqual(await gunzipJson(stored.batches[0].data!), events);
});

Deno.test("ingest: traits or a marker payload nested absurdly deep are a 400 naming the path", async () => {
  await using t = await ingestApp();
  // 1,000 levels: past the 64 a payload may nest, within the 2,000 any body may (http/json_shape.ts).
  const deep = '{"a":'.repeat(1000) + "1" + "}".repeat(1000);
  const post = (template: object) =>
    postIngest(t.app, null, {
      key: t.key,
      rawBody: JSON.stringify(template).replace('"DEEP"', deep),
    });

  const traitsRes = await post({
    sessionId: crypto.randomUUID(),
    events: recordedEvents(2),
    metadata: { ...METADATA, userIdentity: { userId: "u1", traits: { t: "DEEP" } } },
  });
  assert.equal(traitsRes.status, 400);
  const traitsBody = await traitsRes.json();
  assert.equal(traitsBody.kind, "validation");
  assert.match(traitsBody.issues[0].path, /^metadata\.userIdentity\.traits\.t(\.a)+$/);

  const payloadRes = await post({
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(2), customEvent("service:url", { url: "DEEP" }, T0 + 9_000)],
  });
  assert.equal(payloadRes.status, 400);
  const payloadBody = await payloadRes.json();
  assert.match(payloadBody.issues[0].path, /^events\.2\.data\.payload\.url(\.a)+$/);

  // rrweb's own data may nest as deep as any body may: only marker payloads are bounded tighter.
  const domRes = await post({
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(2), {
      type: 3,
      data: { deep: "DEEP" },
      timestamp: T0 + 9_000,
    }],
  });
  assert.equal(domRes.status, 204, await domRes.text());
  assert.equal((await t.db.kysely.selectFrom("sessions").select("id").execute()).length, 1);
});

Deno.test("ingest (property): random strings in every stored text field never fail a batch", async () => {
  await using t = await ingestApp();
  // Every code point (lone surrogates included), with NULs and surrogates made frequent.
  const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));
  const unit = fc.oneof(codePoint, fc.constantFrom("\u0000", "\ud800", "\udfff", "\ud83c"));
  const text = (maxLength: number) => fc.string({ unit, maxLength });
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        url: text(40),
        referrer: text(20),
        userAgent: text(20),
        language: text(10),
        userId: text(12).filter((s) => s.trim().replaceAll("\0", "").length > 0),
        traitKey: text(8),
        traitValue: text(20),
        urlPayload: text(30),
        tagSuffix: text(8).filter((s) => s.length > 0),
        reason: text(20),
      }),
      async (f) => {
        runs++;
        const sessionId = crypto.randomUUID();
        const res = await postIngest(t.app, {
          sessionId,
          events: [
            ...recordedEvents(2),
            customEvent(
              "service:url",
              { url: f.urlPayload, pathname: f.urlPayload },
              T0 + 3_000,
            ),
            customEvent(
              `service:${f.tagSuffix}`,
              { [f.traitKey]: f.traitValue },
              T0 + 4_000,
            ),
          ],
          metadata: {
            url: f.url,
            referrer: f.referrer,
            userAgent: f.userAgent,
            screenWidth: 1,
            screenHeight: 1,
            language: f.language,
            userIdentity: { userId: f.userId, traits: { [f.traitKey]: f.traitValue } },
          },
          sliceMarkers: [{
            index: 0,
            reason: f.reason,
            startedAt: T0,
            url: f.url,
            pathname: f.url,
          }],
        }, { key: t.key });
        assert.equal(res.status, 204, await res.text());
        const stored = await storedFor(t, sessionId);
        assert.ok(stored.session, "session stored");
        assert.equal(stored.batches.length, 1, "batch stored");
        assert.equal(stored.markers.length, 3, "markers stored");
        assert.ok(stored.user, "tracked user stored");
        assertStorable(stored, "rows");
      },
    ),
    { numRuns: 150 },
  );
  assert.equal(runs >= 150, true);
});
