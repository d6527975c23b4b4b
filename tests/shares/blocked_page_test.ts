// A public link's player shows a blocked page as paused, as the dashboard's does: the page carries
// the page's `recording_paused` marker, with its path and nothing else.
import assert from "node:assert/strict";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";
import { pathOf, sharesWorld, shopEvents, T0 } from "@/tests/helpers/shares_world.ts";

Deno.test("public link: a blocked page's paused marker reaches the shared player, its path only", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const paused = {
    type: 5,
    timestamp: T0 + 50_500,
    data: {
      tag: "service:recording_paused",
      payload: { pathname: "/admin/secret", extra: "PrivateNote" },
    },
  };
  const sessionId = await w.record([...shopEvents(), [paused]]);
  const { body } = await w.share({}, undefined, sessionId);
  const res = await page(t, pathOf(body.url));
  assert.equal(res.status, 200);
  const html = await res.text();
  const marker = /\{[^{}]*"kind":"recording_paused"[^{}]*\{[^{}]*\}[^{}]*\}/.exec(html)?.[0];
  assert.ok(marker, "the paused marker is in the page");
  assert.deepEqual(JSON.parse(marker), {
    timestamp: T0 + 50_500,
    kind: "recording_paused",
    data: { pathname: "/admin/secret" },
  });
  assert.ok(!html.includes("PrivateNote"));
});
