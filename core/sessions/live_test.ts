import assert from "node:assert/strict";
import { closesPage, lastClosedAt, LIVE_WITHIN_MS, liveForMs } from "./live.ts";

Deno.test("live: a session can grow for what is left of the window since its latest event", () => {
  const now = new Date("2026-11-25T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);
  assert.equal(liveForMs(ago(0), now), LIVE_WITHIN_MS);
  assert.equal(liveForMs(ago(30_000), now), LIVE_WITHIN_MS - 30_000);
  assert.equal(liveForMs(ago(LIVE_WITHIN_MS), now), 0);
  assert.equal(liveForMs(ago(LIVE_WITHIN_MS + 1), now), 0);
  assert.equal(liveForMs(null, now), LIVE_WITHIN_MS, "no event yet: it has just begun");
});

Deno.test("live: a session whose latest event is its page's end marker grows no more", () => {
  const now = new Date("2026-11-25T12:00:00Z");
  const endedAt = new Date(now.getTime() - 1_000);
  const end = endedAt.getTime();
  assert.equal(liveForMs(endedAt, now, end), 0, "the page closed with its last event");
  assert.equal(liveForMs(endedAt, now, end + 1), 0);
  assert.equal(
    liveForMs(endedAt, now, end - 1),
    LIVE_WITHIN_MS - 1_000,
    "another page of the session sent after the close",
  );
  assert.equal(liveForMs(endedAt, now, null), LIVE_WITHIN_MS - 1_000);
  const markers = [
    { timestamp: end - 5_000, kind: "page_closed" },
    { timestamp: end - 4_000, kind: "url" },
    { timestamp: end, kind: "page_closed" },
  ];
  assert.equal(lastClosedAt(markers), end);
  assert.equal(lastClosedAt(markers.slice(0, 2)), end - 5_000);
  assert.equal(lastClosedAt([]), null);
  assert.equal(closesPage({ type: 5, data: { tag: "service:page_closed", payload: {} } }), true);
  assert.equal(closesPage({ type: 5, data: { tag: "service:url" } }), false);
  assert.equal(closesPage({ type: 3, data: {} }), false);
});
