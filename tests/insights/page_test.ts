// The /insights page: today's trend has a point per hour (a day would be one point, no line),
// "All time" is offered and says what is kept, and an error group unfolds to its latest error's
// whole message and stack.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

const HOUR = 3_600_000;
const STACK = ["pay (https://shop.test/app.js:10:5)", "checkout (https://shop.test/app.js:2:1)"];

Deno.test("insights page: today by the hour, all time as kept, an error's whole message and stack", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t, { role: "VIEWER" });
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const now = Date.now();
  const message = `Order failed: ${"the card was declined by the issuing bank ".repeat(4)}`;
  const events = [...recordedEvents(2, now - 3000), {
    type: 6,
    data: {
      plugin: "rrweb/console@1",
      payload: { level: "error", trace: STACK, payload: [JSON.stringify(message)] },
    },
    timestamp: now - 1000,
  }];
  const body = { sessionId: crypto.randomUUID(), events, metadata: METADATA };
  assert.equal((await postIngest(t.app, body, { key: project.key })).status, 204);
  const get = async (path: string) => {
    const res = await page(t, path, { cookie: owner.cookie });
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    return await res.text();
  };

  const today = await get("/insights?range=today");
  assert.match(today, /Signals per hour today \(UTC\)/);
  const dayStart = new Date(now).toISOString().slice(0, 10);
  const hourStart = new Date(Math.floor((now - 1000) / HOUR) * HOUR).toISOString();
  // the island's points run from 00:00 to now's hour; the error's hour has it
  assert.match(today, new RegExp(`"by":"hour","from":"${dayStart}T00:00:00.000Z","to":"`));
  assert.match(today, new RegExp(`"hourly":\\[\\{"hour":"${hourStart}","errors":1,`));
  assert.match(today, /Hours as a table/);

  const all = await get("/insights?range=all");
  assert.match(all, /<option\s+value="all" selected>All time \(as kept\)<\/option>/);
  assert.match(all, /keeps its sessions for its\s+retention \(7 days unless/);

  const week = await get("/insights?range=7d");
  assert.match(week, /Signals per day/);
  assert.match(week, /<option\s+value="all"\s*>All time/);
  // the error group: its message links to its sessions, and unfolds to the whole of it and its stack
  const cell = week.match(/<td class="error-group">[\s\S]*?<\/td>/)?.[0] ?? "";
  assert.match(cell, /<a href="\/sessions\?[^"]*error=/);
  assert.match(cell, /<details class="error-group-detail"><summary>Message and stack<\/summary>/);
  const escaped = (text: string) => text.replaceAll("(", "\\(").replaceAll(")", "\\)");
  assert.match(cell, new RegExp(`<pre>${escaped([message.trim(), ...STACK].join("\n"))}</pre>`));
});
