// The replay page of a session whose batches live in the object store, with the store frozen (it
// takes the request and never answers): the page answers while the store still holds its request,
// without a first frame, and the player's events request is left to report the store's state.
import assert from "node:assert/strict";
import { claimStaged, commitObject, recordObject } from "../../db/queries/storage/offload.ts";
import { signedInUser } from "../helpers/auth.ts";
import { insertProject } from "../helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "../helpers/ingest.ts";
import { frozenStore } from "../helpers/object_store.ts";
import { createPagesApp, page } from "../helpers/pages.ts";

const START = 1_780_000_000_000;

Deno.test("replay page: a frozen store holds no page view, which goes without a first frame", async () => {
  // The store's own timeout far past the test: a page that waited on the store would answer only
  // once the store's request had been given up.
  await using store = frozenStore({ EVENTS_STORE_TIMEOUT_MS: "30000" });
  await using t = await createPagesApp(store.env);
  const viewer = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: viewer.organizationId });
  const sessionId = crypto.randomUUID();
  const res = await postIngest(t.app, {
    sessionId,
    events: recordedEvents(20, START),
    metadata: METADATA,
  }, { key: project.key, gzip: true });
  assert.equal(res.status, 204);
  const { id } = await t.db.kysely.selectFrom("sessions").select("id")
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();

  // Offloaded as the offloader commits it: the batch points at an object, its inline bytes gone.
  const claimed = await claimStaged(t.db.kysely, "test-claim", 1 << 30, 60_000);
  assert.equal(claimed.length, 1);
  const key = `recordings/${claimed[0].day}/frozen.bin`;
  await recordObject(t.db.kysely, key, claimed[0].day, claimed[0].bytes);
  const placements = [{ ...claimed[0], offset: 0, length: claimed[0].bytes }];
  assert.equal(await commitObject(t.db.kysely, "test-claim", key, placements), 1);

  const view = await page(t, `/replays/${id}`, { cookie: viewer.cookie });
  // The store took the first frame's read and has answered nothing, still holding it.
  const reads = store.requests().filter((r) => r.line.startsWith(`GET /frozen/${key} `));
  assert.deepEqual(reads, [{ line: `GET /frozen/${key} HTTP/1.1`, open: true }]);
  assert.equal(view.status, 200);
  assert.match(view.headers.get("content-type") ?? "", /^text\/html/);
  const html = await view.text();
  assert.doesNotMatch(html, /srcdoc=/);
  // The player is there, and its events request is under way (it reports what the store does).
  assert.ok(html.includes(`href="/api/sessions/${id}/events"`), "the events preload");
  assert.match(html, /Loading the recording…/);
  assert.deepEqual(t.errors, []);
});
