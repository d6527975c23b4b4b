// The replay page's server-drawn first frame (recording/model/first_frame.ts, in the frame
// worker of core/sessions/frame_pool.ts): drawn for an ordinary snapshot and one past the old
// 1 MiB limit, served from the cache on the next view, and skipped past its node bound, so a huge
// recording's page stays small and the player draws that frame itself.
import assert from "node:assert/strict";
import { FIRST_FRAME_LIMITS } from "@/recording/model/first_frame.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest } from "@/tests/helpers/ingest.ts";
import { createPagesApp, page, type PagesApp } from "@/tests/helpers/pages.ts";
import { gunzipSync } from "node:zlib";
import { recent } from "@/tests/helpers/times.ts";

const START = recent(1_780_000_000_000);

function recording(nodes: number) {
  const divs = Array.from({ length: nodes }, (_, i) => ({
    type: 2,
    id: 10 + 2 * i,
    tagName: "div",
    attributes: { class: "row" },
    childNodes: [{ type: 3, id: 11 + 2 * i, textContent: `row ${i}` }],
  }));
  const html = {
    type: 2,
    id: 2,
    tagName: "html",
    attributes: {},
    childNodes: [
      { type: 2, id: 3, tagName: "head", attributes: {}, childNodes: [] },
      { type: 2, id: 4, tagName: "body", attributes: {}, childNodes: divs },
    ],
  };
  return [
    { type: 4, timestamp: START, data: { href: "https://big.test/", width: 1280, height: 800 } },
    {
      type: 2,
      timestamp: START + 1,
      data: { node: { type: 0, id: 1, childNodes: [html] }, initialOffset: { left: 0, top: 0 } },
    },
  ];
}

async function recordSession(t: PagesApp, key: string, nodes: number): Promise<string> {
  const sessionId = crypto.randomUUID();
  const res = await postIngest(t.app, { sessionId, events: recording(nodes), metadata: METADATA }, {
    key,
    gzip: true,
  });
  assert.equal(res.status, 204);
  const row = await t.db.kysely.selectFrom("sessions").select("id")
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  return row.id;
}

Deno.test("replay page: a first snapshot past the old 1 MiB limit is drawn in the worker, then cached", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const small = await recordSession(t, project.key, 100);
  // ~60 bytes of JSON a row: three times the old 1 MiB limit.
  const rows = Math.ceil((3 * 1024 * 1024) / 60);
  const big = await recordSession(t, project.key, rows);
  const view = async (id: string) => {
    const res = await page(t, `/replays/${id}`, { cookie: viewer.cookie });
    assert.equal(res.status, 200);
    return { csp: res.headers.get("content-security-policy") ?? "", html: await res.text() };
  };

  assert.equal(t.deps.frames.pool.started, 0, "no worker before the first frame");
  const smallPage = await view(small);
  assert.match(smallPage.html, /<div class="replay-server-frame"[^>]*><iframe [^>]*srcdoc="/);
  assert.ok(smallPage.html.includes("row 99"));
  assert.match(smallPage.csp, /frame-src 'none'/);

  // Past 1 MiB of HTML the frame is not carried in the page: its frame loads it from its address.
  const stats = { ...t.deps.frames.stats.first };
  const bigPage = await view(big);
  const src = `/replays/frame/${big}`;
  assert.ok(
    bigPage.html.includes(
      `<iframe sandbox="" tabindex="-1" title="First frame of the recording" src="${src}">`,
    ),
  );
  assert.ok(bigPage.html.length < 100_000, `${bigPage.html.length} bytes`);
  assert.match(bigPage.csp, /frame-src 'self'/);
  assert.equal(t.deps.frames.stats.first.drawn - stats.drawn, 1);
  assert.equal(t.deps.frames.pool.started, 1, "drawn by the one frame worker");

  const res = await t.app.request(src, {
    headers: { cookie: viewer.cookie, "accept-encoding": "gzip" },
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-encoding"), "gzip");
  assert.match(res.headers.get("content-security-policy") ?? "", /script-src|default-src 'none'/);
  assert.match(res.headers.get("content-security-policy") ?? "", /; sandbox$/);
  const document = new TextDecoder().decode(
    gunzipSync(new Uint8Array(await res.arrayBuffer())),
  );
  assert.ok(document.includes(`>row ${rows - 1}</div>`), "the last recorded row is drawn");
  assert.ok(!document.includes("<script"));

  // The page and its frame again are answered from the cache: nothing is drawn again.
  assert.equal((await view(big)).html, bigPage.html);
  const plain = await t.app.request(src, { headers: { cookie: viewer.cookie } });
  assert.equal(plain.headers.get("content-encoding"), null);
  assert.equal(await plain.text(), document);
  assert.equal(t.deps.frames.stats.first.drawn - stats.drawn, 1);
  assert.equal(t.deps.frames.stats.first.hits - stats.hits, 3);

  // Under the page's rules: signed out, another organization, or a frame carried in its page.
  const signedOut = await t.app.request(src);
  assert.notEqual(signedOut.status, 200);
  assert.ok(!(await signedOut.text()).includes("row 1"));
  const stranger = await signedInUser(t);
  const theirs = await t.app.request(src, { headers: { cookie: stranger.cookie } });
  assert.equal(theirs.status, 404);
  assert.ok(!(await theirs.text()).includes("row 1"));
  const inline = await t.app.request(`/replays/frame/${small}`, {
    headers: { cookie: viewer.cookie },
  });
  assert.equal(inline.status, 404);
  await inline.body?.cancel();
});

Deno.test("replay page: a first snapshot past the node bound is left to the player, as logged", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  // Each row is two nodes; with the document, html, head and body just past the bound.
  const rows = FIRST_FRAME_LIMITS.maxNodes / 2;
  const big = await recordSession(t, project.key, rows);

  const res = await page(t, `/replays/${big}`, { cookie: viewer.cookie });
  assert.equal(res.status, 200);
  const bigPage = await res.text();
  assert.doesNotMatch(bigPage, /srcdoc=/);
  assert.ok(!bigPage.includes(">row 0<"), "no recorded row in the page");
  // The page is as small as any replay page: the recording reaches the player through /api.
  assert.ok(bigPage.length < 100_000, `${bigPage.length} bytes`);
  const fallback = t.logs.find((l) => l.tag === "replay:frame:fallback");
  assert.equal(fallback?.props.failure, "too-many-nodes");
});

// Also on PostgreSQL: the first frame's read, still running when the session's read answered
// not_found, once outlived the request and kept the test database from closing.
Deno.test("replay page: another organization's session and an unknown id are 404", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const other = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const id = await recordSession(t, project.key, 3);

  const status = async (path: string, cookie: string) => {
    const res = await page(t, path, { cookie });
    await res.text();
    return res.status;
  };
  assert.equal(await status(`/replays/${id}`, owner.cookie), 200);
  assert.equal(await status(`/replays/${id}`, other.cookie), 404);
  assert.equal(await status("/replays/nope", owner.cookie), 404);
});

Deno.test("replay page: the heading and title name the visitor and the entry page, not an id", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const sessionId = crypto.randomUUID();
  const identity = { userId: "u-7", traits: { name: "Ada Lovelace" } };
  const res = await postIngest(t.app, {
    sessionId,
    events: recording(3),
    metadata: { ...METADATA, userIdentity: identity },
  }, { key: project.key });
  assert.equal(res.status, 204);
  const { id } = await t.db.kysely.selectFrom("sessions").select("id")
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  const html = await (await page(t, `/replays/${id}`, { cookie: viewer.cookie })).text();
  assert.match(html, /<title>Replay · Ada Lovelace on \/products\/42 · Playhead<\/title>/);
  assert.match(html, /data-testid="replay-who">Ada Lovelace</);
  assert.match(html, /data-testid="replay-entry">\/products\/42</);
  assert.ok(!html.includes(`>${sessionId}<`), "the session's external id is no heading");
});
