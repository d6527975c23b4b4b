import assert from "node:assert/strict";
import { settleAll } from "./settle_all.ts";

Deno.test("settleAll: the values in order, like Promise.all", async () => {
  assert.deepEqual(await settleAll([Promise.resolve(1), Promise.resolve("two")]), [1, "two"]);
});

Deno.test("settleAll: a failed read answers only after the other read has finished", async () => {
  let slowDone = false;
  const slow = new Promise<number>((resolve) =>
    setTimeout(() => {
      slowDone = true;
      resolve(1);
    }, 30)
  );
  await assert.rejects(settleAll([Promise.reject(new Error("not_found")), slow]), /not_found/);
  assert.equal(slowDone, true);
});
