// What a public link may cost the server, with no account behind it: its cut is made once in the
// cut worker and kept (a second view decodes nothing; a new batch makes another cut), its requests
// in flight are bounded per link and per client address (429 + Retry-After past either), and its
// queries run on the links' own connection share, never the signed-in pages'. Requests are held in
// flight by events answers whose bodies the test has not read.
import assert from "node:assert/strict";
import { MAX_LINK_REQUESTS_PER_ADDRESS, MAX_REQUESTS_PER_LINK } from "@/http/link_limits.ts";
import { requestClassOf } from "@/http/middleware.ts";
import { createPagesApp, type PagesApp } from "@/tests/helpers/pages.ts";
import { pathOf, sharesWorld, T0 } from "@/tests/helpers/shares_world.ts";
import { postIngest } from "@/tests/helpers/ingest.ts";
import { closeIdleDatabases } from "@/tests/helpers/db.ts";

const from = (t: PagesApp, address: string, path: string, method = "GET") =>
  t.app.request(path, { method }, { remoteAddr: { hostname: address, port: 1, transport: "tcp" } });

Deno.test("public link: a second view decodes nothing, its cut kept by link, window and stored event count", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const events = `${pathOf((await w.share({ startMs: 40_000, endMs: 90_000 })).body.url)}/events`;
  const view = async () => {
    const res = await from(t, "192.0.2.1", events);
    assert.equal(res.status, 200);
    return (await res.json()).batches.map((b: { id: string }) => b.id);
  };
  const first = await view();
  // Cut in the worker: the stored batches from the snapshot at 30 s were handed to it.
  const decoded = t.deps.cuts.decoded;
  assert.equal(decoded, 4);
  assert.equal(t.deps.cuts.started, 1);
  assert.deepEqual(await view(), first);
  assert.equal(t.deps.cuts.decoded, decoded, "the second view decoded no batch");
  // Another window of the same session is another cut.
  const other = `${pathOf((await w.share({ startMs: 10_000 })).body.url)}/events`;
  await (await from(t, "192.0.2.1", other)).json();
  assert.equal(t.deps.cuts.decoded, decoded + 5);
  // A batch stored since: the session's event count changed, so the window is cut again.
  const { external_id } = await w.db.selectFrom("sessions").select("external_id")
    .where("id", "=", w.sessionId).executeTakeFirstOrThrow();
  const move = { type: 3, data: { source: 1, positions: [] }, timestamp: T0 + 80_500 };
  const added = await postIngest(t.app, { sessionId: external_id, events: [move] }, {
    key: w.project.key,
  });
  assert.equal(added.status, 204);
  const after = await view();
  assert.equal(t.deps.cuts.decoded, decoded + 5 + 5);
  assert.equal(after.length, first.length + 1);
  await view();
  assert.equal(t.deps.cuts.decoded, decoded + 10, "cached again");
  // Views that arrive while a cut is being made read that one.
  const fresh = `${pathOf((await w.share({ startMs: 20_000 })).body.url)}/events`;
  const views = await Promise.all(
    [1, 2, 3].map(async (n) => (await from(t, `192.0.2.${n}`, fresh)).json()),
  );
  assert.equal(t.deps.cuts.decoded, decoded + 10 + 6, "one cut of batches 1 to 6 for three views");
  assert.deepEqual(views[1], views[0]);
  assert.deepEqual(views[2], views[0]);
});

Deno.test("public link: past its requests in flight per address, 429 with Retry-After; below and at the limit, served", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const link = pathOf((await w.share({})).body.url);
  const events = `${link}/events`;
  const address = "198.51.100.20";
  // One fewer than the limit in flight, then the last place: both served.
  const held: Response[] = [];
  for (let n = 0; n < MAX_LINK_REQUESTS_PER_ADDRESS; n++) {
    const res = await from(t, address, events);
    assert.equal(res.status, 200, `request ${n + 1} of ${MAX_LINK_REQUESTS_PER_ADDRESS}`);
    held.push(res);
  }
  // One more: refused at once, the events' JSON and the page alike.
  const refused = await from(t, address, events);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get("retry-after"), "1");
  assert.match(refused.headers.get("content-type") ?? "", /application\/json/);
  const body = await refused.json();
  assert.equal(body.kind, "rate_limited");
  assert.match(body.message, /link requests from this address/);
  const page = await from(t, address, link);
  assert.equal(page.status, 429);
  assert.equal(page.headers.get("retry-after"), "1");
  assert.match(await page.text(), /Too many requests at once/);
  // Another address is served meanwhile.
  const other = await from(t, "198.51.100.21", events);
  assert.equal(other.status, 200);
  await other.body?.cancel();
  // An IPv6 client counts by its /64: its addresses share its places.
  const v6 = [];
  for (let n = 1; n <= MAX_LINK_REQUESTS_PER_ADDRESS; n++) {
    v6.push(await from(t, `2001:db8:0:7::${n}`, events));
    assert.equal(v6.at(-1)!.status, 200);
  }
  const sameNetwork = await from(t, "2001:db8:0:7:ffff::9", events);
  assert.equal(sameNetwork.status, 429);
  assert.match((await sameNetwork.json()).message, /from this address/);
  for (const res of v6) await res.body?.cancel();
  // An answer read to its end, or given up, gives its place back.
  await held.pop()!.body?.cancel();
  const again = await from(t, address, events);
  assert.equal(again.status, 200);
  await again.json();
  // A HEAD's body is never read: it gives its place back at once.
  for (let n = 0; n < MAX_LINK_REQUESTS_PER_ADDRESS + 2; n++) {
    const head = await from(t, address, events, "HEAD");
    assert.equal(head.status, 200, `HEAD ${n + 1}`);
  }
  held.push(await from(t, address, events));
  assert.equal(held.at(-1)!.status, 200, "the last place, still free");
  assert.equal((await from(t, address, events, "HEAD")).status, 429);
  for (const res of held) await res.body?.cancel();
  const last = await from(t, address, link);
  assert.equal(last.status, 200);
  await last.body?.cancel();
});

Deno.test("public link: past its requests in flight per link, 429 from every address; another link is served", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const events = `${pathOf((await w.share({})).body.url)}/events`;
  const held: Response[] = [];
  for (let n = 0; n < MAX_REQUESTS_PER_LINK; n++) {
    const res = await from(t, `203.0.113.${n + 1}`, events);
    assert.equal(res.status, 200, `request ${n + 1} of ${MAX_REQUESTS_PER_LINK}`);
    held.push(res);
  }
  const refused = await from(t, "203.0.113.200", events);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get("retry-after"), "1");
  assert.match((await refused.json()).message, /requests of this link/);
  // Another link, from the same address: served.
  const other = await from(t, "203.0.113.200", `${pathOf((await w.share({})).body.url)}/events`);
  assert.equal(other.status, 200);
  await other.body?.cancel();
  await held.pop()!.body?.cancel();
  const again = await from(t, "203.0.113.200", events);
  assert.equal(again.status, 200);
  await again.body?.cancel();
  for (const res of held) await res.body?.cancel();
});

Deno.test("public link: its page and events run on the links' connection share, not the signed-in pages'", async () => {
  assert.equal(requestClassOf("GET", "/s/abc"), "links");
  assert.equal(requestClassOf("GET", "/s/abc/events"), "links");
  assert.equal(requestClassOf("GET", "/sessions"), "pages");
  await closeIdleDatabases(); // a database of its own: the shares' peaks are this test's
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const link = pathOf((await w.share({ startMs: 40_000 })).body.url);
  const before = t.db.gate.usage();
  assert.equal(before.links.peak, 0);
  const page = await from(t, "192.0.2.9", link);
  assert.equal(page.status, 200);
  await page.text();
  const events = await from(t, "192.0.2.9", `${link}/events`);
  assert.equal(events.status, 200);
  await events.json();
  const after = t.db.gate.usage();
  assert.ok(after.links.peak >= 1, "the link's queries held links connections");
  assert.equal(after.pages.peak, before.pages.peak, "and no pages connection");
  assert.equal(t.db.gate.shares.links, 1);
  assert.equal(t.db.gate.shares.pages, 1);
});
