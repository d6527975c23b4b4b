import assert from "node:assert/strict";
import { SNAPSHOT_GAP_MS, SNAPSHOT_WEIGHT, SnapshotPacer } from "./snapshot_pacer.ts";

const snapshot = (timestamp: number) => ({ type: 2, timestamp });
const mutation = (timestamp: number) => ({ type: 3, timestamp });

Deno.test("snapshot pacer: due once the events since the last snapshot outweigh it, not sooner than the gap", () => {
  const pacer = new SnapshotPacer();
  assert.equal(pacer.add(mutation(0), 10_000), false, "no snapshot yet: nothing to weigh against");
  assert.equal(pacer.add(snapshot(1_000), 1_000), false);
  // Heavier than SNAPSHOT_WEIGHT snapshots, but too soon.
  assert.equal(pacer.add(mutation(2_000), SNAPSHOT_WEIGHT * 1_000 + 1), false);
  assert.equal(pacer.add(mutation(1_000 + SNAPSHOT_GAP_MS), 1), true);
  assert.equal(pacer.add(mutation(2_000 + SNAPSHOT_GAP_MS), 1), false, "asked once");
  // The snapshot taken starts the count again.
  assert.equal(pacer.add(snapshot(1_000 + SNAPSHOT_GAP_MS), 1_000), false);
  assert.equal(pacer.add(mutation(1_000 + 3 * SNAPSHOT_GAP_MS), SNAPSHOT_WEIGHT * 1_000), false);
  assert.equal(pacer.add(mutation(1_000 + 3 * SNAPSHOT_GAP_MS), 1), true);
});

Deno.test("snapshot pacer: a quiet page with a heavy snapshot is left to the 5-minute checkout", () => {
  const pacer = new SnapshotPacer();
  pacer.add(snapshot(0), 800_000);
  for (let t = 1_000; t < 600_000; t += 1_000) assert.equal(pacer.add(mutation(t), 500), false);
});
