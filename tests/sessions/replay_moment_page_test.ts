// The replay page opened at a moment (`?t=`, core/sessions/opening_frame.ts): it carries the frame
// at that moment, drawn once and then answered from the cache; past a bound it carries none (the
// player draws the moment, as before) and says why in the log; another organization's session is
// still a 404.
import assert from "node:assert/strict";
import { MOMENT_LIMITS } from "@/recording/model/moment_frame.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest } from "@/tests/helpers/ingest.ts";
import { createPagesApp, page, type PagesApp } from "@/tests/helpers/pages.ts";
import { recent } from "@/tests/helpers/times.ts";

const START = recent(1_780_000_000_000);

/** A page whose text changes from "before" to "after" 5 s in, in a body of `rows` rows. */
function recording(rows: number) {
  const divs = Array.from({ length: rows }, (_, i) => ({
    type: 2,
    id: 10 + i,
    tagName: "div",
    attributes: {},
    childNodes: [],
  }));
  const body = {
    type: 2,
    id: 4,
    tagName: "body",
    attributes: {},
    childNodes: [
      { type: 3, id: 5, textContent: "before" },
      ...divs,
    ],
  };
  const html = { type: 2, id: 2, tagName: "html", attributes: {}, childNodes: [body] };
  return [
    { type: 4, timestamp: START, data: { href: "https://shop.test/", width: 1280, height: 800 } },
    {
      type: 2,
      timestamp: START + 1,
      data: { node: { type: 0, id: 1, childNodes: [html] }, initialOffset: { left: 0, top: 0 } },
    },
    {
      type: 3,
      timestamp: START + 5_000,
      data: {
        source: 0,
        texts: [{ id: 5, value: "after" }],
        attributes: [],
        removes: [],
        adds: [],
      },
    },
  ];
}

async function record(t: PagesApp, key: string, rows: number): Promise<string> {
  const sessionId = crypto.randomUUID();
  const res = await postIngest(t.app, { sessionId, events: recording(rows), metadata: METADATA }, {
    key,
    gzip: true,
  });
  assert.equal(res.status, 204);
  const row = await t.db.kysely.selectFrom("sessions").select(["id", "started_at"])
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  assert.equal(row.started_at.getTime(), START);
  return row.id;
}

const frameOf = (html: string) => html.match(/srcdoc="([^"]*)"/)?.[1] ?? null;

Deno.test("replay page at ?t=: the moment's frame, drawn once, then from the cache", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const id = await record(t, project.key, 3);

  const before = await (await page(t, `/replays/${id}?t=4999`, { cookie: viewer.cookie })).text();
  assert.match(frameOf(before)!, /<body>before/);
  const views = { ...t.deps.frames.stats.moment };
  const at = await page(t, `/replays/${id}?t=5000`, { cookie: viewer.cookie });
  assert.equal(at.status, 200);
  assert.match(frameOf(await at.text())!, /<body>after/);
  assert.equal(t.deps.frames.stats.moment.drawn - views.drawn, 1);
  const again = await (await page(t, `/replays/${id}?t=5000`, { cookie: viewer.cookie })).text();
  assert.match(frameOf(again)!, /<body>after/);
  assert.equal(t.deps.frames.stats.moment.drawn - views.drawn, 1);
  assert.equal(t.deps.frames.stats.moment.hits - views.hits, 1);

  const stranger = await signedInUser(t, { email: "other@shop.test" });
  const res = await page(t, `/replays/${id}?t=5000`, { cookie: stranger.cookie });
  assert.equal(res.status, 404);
});

Deno.test("replay page at ?t=: past a bound no frame, the reason logged", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const fits = await record(t, project.key, 20);
  const over = await record(t, project.key, 21);
  const maxNodes = MOMENT_LIMITS.maxNodes;
  // The document, its html, body and text, and the rows: 24 nodes with 20 rows, 25 with 21.
  MOMENT_LIMITS.maxNodes = 24;
  try {
    const fitting = await (await page(t, `/replays/${fits}?t=6000`, { cookie: viewer.cookie }))
      .text();
    assert.notEqual(frameOf(fitting), null);
    const res = await page(t, `/replays/${over}?t=6000`, { cookie: viewer.cookie });
    assert.equal(res.status, 200);
    assert.equal(frameOf(await res.text()), null);
  } finally {
    MOMENT_LIMITS.maxNodes = maxNodes;
  }
  const fallback = t.logs.find((l) => l.tag === "replay:frame:fallback");
  assert.equal(fallback?.props.failure, "too-many-nodes");
  assert.equal(fallback?.props.sessionId, over);
});
