import assert from "node:assert/strict";
import { Timeline } from "@/player/play/timeline.ts";
import { bandAt, idleBands } from "./idle_bands.ts";

const GAPS = [{ start: 20_000, end: 145_000 }];

Deno.test("idle bands: a 2 min 5 s stretch is 5 s of the bar, named by its real length", () => {
  const compressed = new Timeline(GAPS, 200_000, true);
  assert.deepEqual(idleBands(compressed, true), [
    { real: 20_000, start: 20_000, length: 5_000, label: "Idle 2 min 5 s skipped" },
  ]);
  assert.equal(idleBands(compressed, false)[0].label, "Idle 2 min 5 s played in 5 s");
  const real = new Timeline(GAPS, 200_000, false);
  assert.deepEqual(idleBands(real, false), [
    { real: 20_000, start: 20_000, length: 125_000, label: "Idle 2 min 5 s" },
  ]);
  assert.equal(idleBands(real, true)[0].label, "Idle 2 min 5 s skipped");
});

Deno.test("idle bands: the band under a point of the bar includes its start, not its end", () => {
  const bands = idleBands(new Timeline(GAPS, 200_000, true), true);
  assert.equal(bandAt(bands, 19_999), null);
  assert.equal(bandAt(bands, 20_000), bands[0]);
  assert.equal(bandAt(bands, 24_999), bands[0]);
  assert.equal(bandAt(bands, 25_000), null);
});
