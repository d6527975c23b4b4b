// Zone-independent: every assertion reads the ticks back in the runtime's own time zone.
import assert from "node:assert/strict";
import { timeTicks } from "./time_axis.ts";

const HOUR = 3_600_000;
const from = Date.UTC(2026, 2, 12, 9, 20);
const local = (t: number) => new Date(t);

Deno.test("time axis: a 6 h window gets a tick on every whole local hour inside it", () => {
  const ticks = timeTicks(from, from + 6 * HOUR);
  assert.equal(ticks.length, 6);
  for (const tick of ticks) {
    assert.ok(tick.t >= from && tick.t <= from + 6 * HOUR);
    assert.equal(local(tick.t).getMinutes(), 0);
    if (!tick.day) assert.match(tick.label, /^\d\d:00$/);
  }
});

Deno.test("time axis: a 24 h window ticks every 3 local hours and names the day at midnight", () => {
  const ticks = timeTicks(from, from + 24 * HOUR);
  assert.equal(ticks.length, 8);
  assert.ok(ticks.every((t) => local(t.t).getHours() % 3 === 0));
  const midnight = ticks.filter((t) => t.day);
  assert.equal(midnight.length, 1);
  assert.match(midnight[0].label, /^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}$/);
});

Deno.test("time axis: a week ticks on the seven local midnights inside it", () => {
  const ticks = timeTicks(from, from + 168 * HOUR);
  assert.equal(ticks.length, 7);
  assert.ok(ticks.every((t) => t.day && local(t.t).getHours() === 0));
  assert.ok(ticks[0].t > from && ticks[0].t - from <= 24 * HOUR);
});
