// Browser test: a real page recorded by the SDK reaches the service and replays to the same DOM.

import assert from "node:assert/strict";
import { sessionRow, storedBatches, storedEvents } from "./sdk_readback.ts";
import { addReplayPage, liveText, replayText } from "./sdk_replay.ts";
import { sdkPage, startHarness, waitFor, withPh } from "./sdk_harness.ts";

const TODO_APP = `
<h1>Todos</h1>
<form id="f"><input id="new" placeholder="What needs doing?"><button id="add">Add</button></form>
<ul id="list"></ul>
<p id="count">0 items left</p>
<nav><a href="#/all">All</a> <a href="#/active">Active</a></nav>`;

const TODO_SCRIPT = `
const list = document.getElementById("list");
document.getElementById("f").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = document.getElementById("new");
  const li = document.createElement("li");
  li.textContent = "Todo: " + input.value;
  list.appendChild(li);
  input.value = "";
  document.getElementById("count").textContent = list.children.length + " items left";
  console.log("todo added", { items: list.children.length });
});`;

Deno.test("sdk e2e: a recorded page arrives, decodes and replays to the same text", async () => {
  await using h = await startHarness();
  await addReplayPage(h);
  const project = await h.server.createProject();
  h.page("/todo", sdkPage(h, project.key, { flushInterval: 300 }, TODO_APP, TODO_SCRIPT));

  const { page } = await h.context();
  await page.goto(`${h.pagesUrl}/todo`);
  for (const todo of ["Buy milk", "Walk the dog", "Write tests"]) {
    await page.fill("#new", todo);
    await page.click("#add");
  }
  await page.click("text=Active");
  await page.evaluate(() => document.querySelector("h1")!.classList.add("done"));
  const sessionId = await withPh(page, (ph) => ph.sessionId!);
  assert.equal(await withPh(page, (ph) => ph.state), "recording");
  const expected = await liveText(page);
  await withPh(page, (ph) => ph.flush());

  const session = await waitFor(
    async () => {
      const row = await sessionRow(h.server.db, project.id, sessionId);
      return row && row.event_count > 0 && h.ingests().every((r) => r.status === 204) ? row : null;
    },
    10_000,
    "the session",
  );
  await page.waitForTimeout(400); // any batch still in flight lands
  const batches = await storedBatches(h.server.db, project.id, sessionId);
  const events = await storedEvents(h.server.db, project.id, sessionId);
  const fresh = await sessionRow(h.server.db, project.id, sessionId);
  assert.equal(fresh!.event_count, events.length, "event_count matches the stored events");
  assert.ok(batches.length >= 1);
  assert.ok(session);
  assert.equal(session.url, `${h.pagesUrl}/todo`);
  assert.match(session.user_agent ?? "", /Chrome/);
  assert.ok((session.screen_width ?? 0) > 0);
  const types = new Set(events.map((e) => e.type));
  for (const t of [2, 3, 4, 6]) assert.ok(types.has(t), `event type ${t} recorded`);
  const log = events.find((e) => e.type === 6)!;
  assert.match(JSON.stringify(log.data), /todo added/);
  // Every request carried the session id, and the first one the metadata.
  const ingests = h.ingests();
  assert.ok(ingests.every((r) => r.body.sessionId === sessionId));
  assert.equal(ingests[0].body.metadata?.url, `${h.pagesUrl}/todo`);

  const { page: player } = await h.context();
  const replayed = await replayText(h, player, events);
  assert.match(expected, /Todo: Buy milk Todo: Walk the dog Todo: Write tests/);
  assert.equal(replayed, expected);
});
