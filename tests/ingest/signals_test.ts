// Ingest turns console errors and the SDK's rage/dead clicks into markers and counts
// them on the session in the same statement; the user agent gives browser, OS and device.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import {
  customEvent,
  METADATA,
  postIngest,
  recordedEvents,
  type TestEvent,
} from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

function consoleError(message: string, timestamp: number): TestEvent {
  return {
    type: 6,
    data: {
      plugin: "rrweb/console@1",
      payload: { level: "error", trace: ["at f (app.js:1:2)"], payload: [JSON.stringify(message)] },
    },
    timestamp,
  };
}

const rage = (timestamp: number) =>
  customEvent("service:rage_click", {
    selector: "button#buy",
    text: "Buy",
    x: 10,
    y: 20,
    clicks: 4,
  }, timestamp);
const dead = (timestamp: number) =>
  customEvent("service:dead_click", { selector: "a.more", text: "More", x: 1, y: 2 }, timestamp);

Deno.test("ingest: errors, rage and dead clicks become markers and session counts; a retry adds none", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const sessionId = crypto.randomUUID();
  const first = {
    sessionId,
    events: [
      ...recordedEvents(3, T0),
      consoleError("Uncaught TypeError: x is undefined", T0 + 3000),
      rage(T0 + 3500),
      dead(T0 + 3600),
    ],
    metadata: {
      ...METADATA,
      userAgent:
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    },
  };
  assert.equal((await postIngest(t.app, first, { key: project.key })).status, 204);
  assert.equal((await postIngest(t.app, first, { key: project.key })).status, 204); // a retry
  const later = {
    sessionId,
    events: [
      consoleError("second", T0 + 9000),
      rage(T0 + 9500),
      customEvent("service:x", {}, T0 + 9600),
    ],
  };
  assert.equal((await postIngest(t.app, later, { key: project.key })).status, 204);

  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.error_count, 2);
  assert.equal(session.rage_click_count, 2);
  assert.equal(session.dead_click_count, 1);
  assert.deepEqual([session.browser, session.os, session.device], ["Safari", "iOS", "mobile"]);
  const markers = await t.db.kysely.selectFrom("markers").select(["kind", "data", "ts"])
    .where("kind", "in", ["error", "rage_click", "dead_click"]).orderBy("ts").execute();
  assert.deepEqual(markers.map((m) => [m.kind, Number(m.ts)]), [
    ["error", T0 + 3000],
    ["rage_click", T0 + 3500],
    ["dead_click", T0 + 3600],
    ["error", T0 + 9000],
    ["rage_click", T0 + 9500],
  ]);
  assert.deepEqual(markers[0].data, {
    message: "Uncaught TypeError: x is undefined",
    stack: "at f (app.js:1:2)",
  });
  assert.deepEqual(markers[1].data, {
    selector: "button#buy",
    text: "Buy",
    x: 10,
    y: 20,
    clicks: 4,
  });
});

Deno.test("ingest: later metadata keeps the first user agent's browser", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const sessionId = crypto.randomUUID();
  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0), metadata: METADATA }, {
    key: project.key,
  });
  const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";
  await postIngest(t.app, {
    sessionId,
    events: recordedEvents(2, T0 + 5000),
    metadata: { ...METADATA, userAgent: firefox },
  }, { key: project.key });
  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.deepEqual([session.browser, session.os, session.device], ["Chrome", "Linux", "desktop"]);
});
