import assert from "node:assert/strict";
import { captureLogs } from "@/log.ts";
import { LastUsedTracker } from "./last_used.ts";

Deno.test("lastUsed: writes at most once a minute per project", async () => {
  const writes: string[] = [];
  const tracker = new LastUsedTracker((id) => {
    writes.push(id);
    return Promise.resolve();
  });
  tracker.touch("a", 0);
  tracker.touch("a", 59_999);
  tracker.touch("b", 10);
  tracker.touch("a", 60_000);
  await tracker.settle();
  assert.deepEqual(writes, ["a", "b", "a"]);
});

Deno.test("lastUsed: a failing write is logged, never thrown, and retried on the next touch", async () => {
  const logs = await captureLogs();
  let attempts = 0;
  const tracker = new LastUsedTracker(() => {
    attempts++;
    return Promise.reject(new Error("database down"));
  });
  tracker.touch("a", 0);
  await tracker.settle();
  tracker.touch("a", 1);
  await tracker.settle();
  assert.equal(attempts, 2);
  const failures = logs.filter((l) => l.tag === "project:last_used:failed");
  assert.equal(failures.length, 2);
  assert.equal(failures[0].level, "warning");
  assert.match(String(failures[0].props.error), /database down/);
});
