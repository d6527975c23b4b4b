// The replay page of a session whose batches live in the object store, with the store frozen (it
// takes the request and never answers): the page answers while the store still holds its request,
// without a first frame, and the player's events request is left to report the store's state.
import assert from "node:assert/strict";
import { claimStaged, commitObject, recordObject } from "@/db/queries/storage/offload.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { frozenStore } from "@/tests/helpers/object_store.ts";
import { createPagesApp, page, type PagesApp } from "@/tests/helpers/pages.ts";
import { recent } from "@/tests/helpers/times.ts";

const START = recent(1_780_000_000_000);

/**
 * A session of one batch, offloaded as the offloader commits it (nothing uploaded: the store is
 * frozen): the batch points at an object, its inline bytes gone.
 */
async function offloadedSession(t: PagesApp, projectKey: string): Promise<string> {
  const sessionId = crypto.randomUUID();
  const res = await postIngest(t.app, {
    sessionId,
    events: recordedEvents(20, START),
    metadata: METADATA,
  }, { key: projectKey, gzip: true });
  assert.equal(res.status, 204);
  const claimed = await claimStaged(t.db.kysely, "test-claim", 1 << 30, 60_000);
  assert.equal(claimed.length, 1);
  const key = `recordings/${claimed[0].day}/frozen.bin`;
  await recordObject(t.db.kysely, key, claimed[0].day, claimed[0].bytes);
  const placements = [{ ...claimed[0], offset: 0, length: claimed[0].bytes }];
  assert.equal(await commitObject(t.db.kysely, "test-claim", key, placements), 1);
  const row = await t.db.kysely.selectFrom("sessions").select("id")
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  return row.id;
}

async function objectKeyOf(t: PagesApp): Promise<string> {
  const row = await t.db.kysely.selectFrom("event_batches").select("object_key")
    .executeTakeFirstOrThrow();
  return row.object_key!;
}

Deno.test("replay page: a frozen store holds no page view, which goes without a first frame", async () => {
  // The store's own timeout far past the test: a page that waited on the store would answer only
  // once the store's request had been given up (or at the page's database budget, a 503). Both
  // are long, so a loaded machine cannot make a page that does not wait look like one that does.
  await using store = frozenStore({ EVENTS_STORE_TIMEOUT_MS: "60000" });
  await using t = await createPagesApp({ ...store.env, DASHBOARD_DATABASE_BUDGET_MS: "45000" });
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const id = await offloadedSession(t, project.key);
  const key = await objectKeyOf(t);

  const view = await page(t, `/replays/${id}`, { cookie: viewer.cookie });
  // The store took the first frame's read and has answered nothing, still holding it.
  const reads = store.requests().filter((r) => r.line.startsWith(`GET /frozen/${key} `));
  assert.equal(view.status, 200);
  assert.deepEqual(reads, [{ line: `GET /frozen/${key} HTTP/1.1`, open: true }]);
  assert.match(view.headers.get("content-type") ?? "", /^text\/html/);
  const html = await view.text();
  assert.doesNotMatch(html, /srcdoc=/);
  // The player is there, and its events request is under way (it reports what the store does).
  assert.ok(html.includes(`href="/api/sessions/${id}/events"`), "the events preload");
  assert.match(html, /Loading the recording…/);
  assert.deepEqual(t.errors, []);
});

Deno.test("replay page: opened at ?t=, a frozen store holds no page view either", async () => {
  await using store = frozenStore({ EVENTS_STORE_TIMEOUT_MS: "60000" });
  await using t = await createPagesApp({ ...store.env, DASHBOARD_DATABASE_BUDGET_MS: "45000" });
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const id = await offloadedSession(t, project.key);
  const key = await objectKeyOf(t);

  const view = await page(t, `/replays/${id}?t=5000`, { cookie: viewer.cookie });
  const reads = store.requests().filter((r) => r.line.startsWith(`GET /frozen/${key} `));
  assert.equal(view.status, 200);
  // The moment's drawing gave up on the store (FIRST_FRAME_STORE_WAIT_MS), not at its own 3 s
  // budget, which abandons the drawing and its worker.
  assert.equal(t.deps.frames.pool.abandoned, 0);
  assert.equal(t.deps.frames.pool.started, 1);
  assert.deepEqual(reads, [{ line: `GET /frozen/${key} HTTP/1.1`, open: true }]);
  const html = await view.text();
  assert.doesNotMatch(html, /srcdoc=/);
  assert.match(html, /Loading the recording…/);
  assert.deepEqual(t.errors, []);
});

Deno.test("replay page: with the store frozen, the player's events request reports it (503)", async () => {
  await using store = frozenStore({ EVENTS_STORE_TIMEOUT_MS: "100" });
  await using t = await createPagesApp(store.env);
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const id = await offloadedSession(t, project.key);
  const res = await t.app.request(`/api/sessions/${id}/events`, {
    headers: { cookie: viewer.cookie },
  });
  assert.equal(res.status, 503);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  assert.ok(Number(res.headers.get("retry-after")) > 0);
  const body = await res.json();
  assert.equal(body.kind, "unavailable");
  assert.match(body.message, /store/);
});
