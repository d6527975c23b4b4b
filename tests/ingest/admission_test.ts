// Ingest admission: past the limit, requests wait for a turn, and every one is still answered.
import assert from "node:assert/strict";
import { Hono } from "hono";
import { ingestAdmission } from "@/api/ingest/admission.ts";

Deno.test("ingest admission handles at most `limit` requests at once and answers every one", async () => {
  const app = new Hono();
  let running = 0;
  let peak = 0;
  const handled: string[] = [];
  const waiting: Array<() => void> = [];
  app.post("/ingest", ingestAdmission(2), async (c) => {
    running++;
    peak = Math.max(peak, running);
    handled.push(await c.req.text());
    await new Promise<void>((resolve) => waiting.push(resolve));
    running--;
    return c.body(null, 204);
  });

  const answers = Array.from(
    { length: 5 },
    (_, i) => app.request("/ingest", { method: "POST", body: `batch ${i}` }),
  );
  await until(() => waiting.length >= 2);
  await tick();
  // the other three wait outside the handler
  assert.deepEqual(handled, ["batch 0", "batch 1"]);
  for (let released = 0; released < 5; released++) {
    await until(() => waiting.length > 0);
    waiting.shift()!();
  }
  const statuses = (await Promise.all(answers)).map((response) => response.status);
  assert.deepEqual(statuses, [204, 204, 204, 204, 204]);
  assert.deepEqual(handled.toSorted(), ["batch 0", "batch 1", "batch 2", "batch 3", "batch 4"]);
  assert.equal(peak, 2);
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Waits for `condition`, at most 2,000 ticks (about 10 s): a regression fails, not hangs. */
async function until(condition: () => boolean) {
  for (let i = 0; i < 2_000 && !condition(); i++) await tick();
  assert.ok(condition(), "the awaited state never came");
}
