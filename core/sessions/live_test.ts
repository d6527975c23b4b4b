import assert from "node:assert/strict";
import { LIVE_WITHIN_MS, liveForMs } from "./live.ts";

Deno.test("live: a session can grow for what is left of the window since its latest event", () => {
  const now = new Date("2026-11-25T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);
  assert.equal(liveForMs(ago(0), now), LIVE_WITHIN_MS);
  assert.equal(liveForMs(ago(30_000), now), LIVE_WITHIN_MS - 30_000);
  assert.equal(liveForMs(ago(LIVE_WITHIN_MS), now), 0);
  assert.equal(liveForMs(ago(LIVE_WITHIN_MS + 1), now), 0);
  assert.equal(liveForMs(null, now), LIVE_WITHIN_MS, "no event yet: it has just begun");
});
