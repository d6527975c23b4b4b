import assert from "node:assert/strict";
import { followUrl, mayJump, momentSteps, openingPlan, type PlanSource } from "./loading_plan.ts";

const base = "https://playhead.test/replays/s1";
const source: PlanSource = { sessionId: "s1", startAt: 0, base };
const events = "https://playhead.test/api/sessions/s1/events";

Deno.test("loading plan: at the start, everything in one request (the one the page preloaded)", () => {
  assert.deepEqual(openingPlan(source), [{ kind: "all", url: events }]);
  const shared = { ...source, eventsPath: "/s/tok/events" };
  assert.deepEqual(openingPlan(shared), [{
    kind: "all",
    url: "https://playhead.test/s/tok/events",
  }]);
});

Deno.test("loading plan: at a moment, its snapshot's batches on first, then the ones before", () => {
  assert.deepEqual(openingPlan({ ...source, startAt: 5_000 }), [
    { kind: "moment", url: `${events}?from=5000` },
    { kind: "before", url: `${events}?before=5000` },
  ]);
  assert.deepEqual(momentSteps(source, 1), openingPlan({ ...source, startAt: 1 }));
});

Deno.test("loading plan: a seek jumps only while the one whole request streams, once", () => {
  const streaming = { jumped: false, loading: true, planned: 0, ready: true };
  assert.equal(mayJump(source, streaming), true);
  assert.equal(mayJump(source, { ...streaming, jumped: true }), false);
  assert.equal(mayJump(source, { ...streaming, loading: false }), false);
  assert.equal(mayJump(source, { ...streaming, planned: 1 }), false);
  assert.equal(mayJump(source, { ...streaming, ready: false }), false);
  assert.equal(mayJump({ ...source, startAt: 1 }, streaming), false);
  assert.equal(mayJump({ ...source, eventsPath: "/s/tok/events" }, streaming), false);
});

Deno.test("loading plan: following an open session asks for the batches after the last one", () => {
  assert.equal(followUrl(source, null), events);
  assert.equal(followUrl(source, "42"), `${events}?after=42`);
});
