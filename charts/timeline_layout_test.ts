import assert from "node:assert/strict";
import type { TimelineSession } from "@/core/tracked_users/schema.ts";
import { layoutTimeline } from "./timeline_layout.ts";

const T0 = Date.UTC(2026, 2, 12, 0, 0);
const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();
const window = { from: iso(T0), to: iso(T0 + 360 * MIN) };

function session(id: string, startMin: number, endMin: number | null, pages: string[] = []) {
  const start = T0 + startMin * MIN, end = endMin === null ? null : T0 + endMin * MIN;
  const step = ((end ?? T0 + 360 * MIN) - start) / Math.max(1, pages.length);
  return {
    id,
    externalId: id,
    startedAt: iso(start),
    endedAt: end === null ? null : iso(end),
    duration: end === null ? 0 : end - start,
    url: null,
    periods: pages.map((pathname, i) => ({
      url: `https://x.test${pathname}`,
      pathname,
      startedAt: iso(start + i * step),
      endedAt: iso(start + (i + 1) * step),
      duration: step,
    })),
  } satisfies TimelineSession;
}

const options = { maxLanes: 4, minWidth: 0.01 };

Deno.test("timeline layout: sessions one after another share a lane, with the idle gap between", () => {
  const layout = layoutTimeline(
    { ...window, sessions: [session("a", 10, 40, ["/", "/cart"]), session("b", 100, 130)] },
    options,
  );
  assert.equal(layout.lanes, 1);
  assert.deepEqual(layout.bars.map((b) => b.lane), [0, 0]);
  assert.deepEqual(layout.gaps, [{ lane: 0, start: T0 + 40 * MIN, end: T0 + 100 * MIN }]);
  assert.deepEqual(layout.bars[0].segments.map((s) => s.pathname), ["/", "/cart"]);
});

Deno.test("timeline layout: overlapping sessions go to separate lanes, never more than the maximum", () => {
  const sessions = Array.from({ length: 6 }, (_, i) => session(`s${i}`, 10 + i, 200));
  const layout = layoutTimeline({ ...window, sessions }, options);
  assert.equal(layout.lanes, 4);
  assert.deepEqual(layout.bars.slice(0, 4).map((b) => b.lane), [0, 1, 2, 3]);
  assert.ok(layout.bars.every((b) => b.lane < 4));
});

Deno.test("timeline layout: bars too short to see still take their minimum width when laid out", () => {
  // 1% of 6 h is 3.6 min: two 10-second sessions a minute apart would draw on top of each other.
  const a = session("a", 50, 50.2), b = session("b", 51, 51.2);
  assert.equal(layoutTimeline({ ...window, sessions: [a, b] }, options).lanes, 2);
});

Deno.test("timeline layout: bars and periods are clipped to the window; an open session runs to its end", () => {
  const layout = layoutTimeline(
    { ...window, sessions: [session("early", -30, 20, ["/a", "/b"]), session("open", 300, null)] },
    options,
  );
  const [early, open] = layout.bars;
  assert.equal(early.start, T0);
  assert.equal(early.segments[0].start, T0);
  assert.equal(open.end, T0 + 360 * MIN);
});
