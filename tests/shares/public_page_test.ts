// A public link as a signed-out visitor meets it: the window cut on the server (read in
// the raw events the token's endpoint returns), the page's headers, nothing of the tracked user,
// the organization, the project or another session, the token opening no /api route, and token
// guessing throttled per client address.
import assert from "node:assert/strict";
import { GuessThrottle, setGuessThrottle } from "@/core/shares/guess_throttle.ts";
import { decodeBatch, type RecordedEvent } from "@/recording/decode.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";
import { pathOf, PERSON, sharesWorld, T0 } from "@/tests/helpers/shares_world.ts";
import type { TestEvent } from "@/tests/helpers/ingest.ts";

async function eventsOf(res: Response): Promise<RecordedEvent[][]> {
  const body = await res.json();
  return await Promise.all(
    body.batches.map((b: { data: string }) => decodeBatch(b.data)),
  );
}

Deno.test("public link: 00:40–01:10 sends the page at 40 s, synthesized, then its window to 70 s", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { body } = await w.share({ expiresInHours: 1, startMs: 40_000, endMs: 70_000 });
  const res = await page(t, `${pathOf(body.url)}/events`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const events = (await eventsOf(res)).flat();
  // The page as it stood at 40 s (the snapshot at 30.001 s with the heading's changes at 30 and
  // 40 s), as a Meta and a full snapshot stamped at 40 s: nothing recorded before it is sent.
  assert.deepEqual(events.slice(0, 2).map((e) => [e.type, e.timestamp]), [
    [4, T0 + 40_000],
    [2, T0 + 40_000],
  ]);
  assert.match(JSON.stringify(events[1].data), /"textContent":"At 40 s"/);
  assert.ok(events.every((e) => e.timestamp >= T0 + 40_000), "nothing before the start");
  assert.ok(events.every((e) => e.timestamp <= T0 + 70_000), "nothing after the end");
  // The end is inclusive: the heading's change at exactly 70 s is the last event sent.
  assert.equal(events.at(-1)!.timestamp, T0 + 70_000);
  assert.deepEqual(events.at(-1)!.data, {
    source: 0,
    texts: [{ id: 4, value: "At 70 s" }],
    attributes: [],
    removes: [],
    adds: [],
  });
  assert.equal(events.filter((e) => e.timestamp > T0 + 69_000).length, 2, "69.1 s and 70 s");
  assert.equal(events.filter((e) => e.type === 2).length, 1);
  // No custom event (the identify with the traits), no console (not chosen).
  assert.ok(events.every((e) => e.type !== 5 && e.type !== 6));
});

const RESET_URL =
  "https://shop.test/reset?email=ada.quartermaine%40example.test&reset_token=RT-5f1e9c77";
const el = (id: number, tagName: string, childNodes: unknown[] = [], attributes = {}) => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});
const at = (t: number, type: number, data: unknown): TestEvent => ({
  type,
  data,
  timestamp: T0 + t,
});
const typed = (t: number, text: string) => at(t, 3, { source: 5, id: 10, text, isChecked: false });
const mouse = (t: number) =>
  at(t, 3, { source: 1, positions: [{ x: t % 700, y: 10, id: 3, timeOffset: 0 }] });

/**
 * The probe's page: a password reset reached by a link naming the visitor; a paragraph's text
 * added at 10 s, a field typed at 12 s and retyped at 20 s and 45 s, a page address at 15 s, a
 * log at 16 s, a change after 70 s; 80 s in four batches, one snapshot (at 0).
 */
function resetEvents(): TestEvent[][] {
  const events: TestEvent[] = [
    at(0, 4, { href: RESET_URL, width: 1280, height: 800 }),
    at(1, 2, {
      node: {
        type: 0,
        id: 1,
        childNodes: [el(2, "html", [
          el(3, "body", [el(10, "input", [], { type: "text" }), el(11, "p")]),
        ])],
      },
      initialOffset: { left: 0, top: 0 },
    }),
    at(10_000, 3, {
      source: 0,
      adds: [{
        parentId: 11,
        nextId: null,
        node: { type: 3, id: 12, textContent: "Added at 10 s" },
      }],
      texts: [],
      attributes: [],
      removes: [],
    }),
    typed(12_000, "draft-typed-at-12"),
    at(15_000, 5, { tag: "service:url", payload: { url: RESET_URL, pathname: "/reset" } }),
    at(16_000, 6, {
      plugin: "rrweb/console@1",
      payload: { level: "log", payload: ['"log-before-window"'] },
    }),
    typed(20_000, "final-typed-at-20"),
    typed(45_000, "typed-in-window"),
    at(75_000, 3, {
      source: 0,
      texts: [{ id: 12, value: "after-the-end" }],
      adds: [],
      removes: [],
      attributes: [],
    }),
  ];
  for (let s = 0; s < 80; s++) events.push(mouse(s * 1000 + 500));
  events.sort((a, b) => a.timestamp - b.timestamp);
  return [0, 1, 2, 3].map((q) =>
    events.filter((e) => e.timestamp >= T0 + q * 20_000 && e.timestamp < T0 + (q + 1) * 20_000)
  );
}

Deno.test("public link: the probe's 40–70 s window sends nothing stamped before 40 s, the page as it stood at 40 s, and the page's address cut to origin and path", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const session = await w.record(resetEvents());
  const { body } = await w.share(
    { startMs: 40_000, endMs: 70_000, showConsole: true },
    undefined,
    session,
  );
  const res = await page(t, `${pathOf(body.url)}/events`);
  assert.equal(res.status, 200);
  const raw = await res.clone().text();
  const events = (await eventsOf(res)).flat();
  assert.ok(events.every((e) => e.timestamp >= T0 + 40_000), "nothing stamped before 40 s");
  assert.ok(events.every((e) => e.timestamp <= T0 + 70_000), "nothing after 70 s");
  assert.deepEqual(events[0], {
    type: 4,
    data: { href: "https://shop.test/reset", width: 1280, height: 800 },
    timestamp: T0 + 40_000,
  });
  assert.equal(events[1].type, 2);
  const start = JSON.stringify(events[1].data);
  assert.ok(start.includes("Added at 10 s"), "the text added at 10 s, in the page");
  assert.ok(start.includes("final-typed-at-20"), "the field as it stood at 40 s");
  assert.ok(JSON.stringify(events).includes("typed-in-window"));
  const decoded = JSON.stringify(events);
  for (
    const gone of [
      "draft-typed-at-12",
      "reset_token",
      "RT-5f1e9c77",
      "quartermaine",
      "log-before-window",
      "after-the-end",
    ]
  ) {
    assert.ok(!decoded.includes(gone) && !raw.includes(gone), gone);
  }
});

Deno.test("public link: a 400–440 s window of a long recording sends the page at 400 s and its 40 s, not the first 400 s", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  // 460 s with one snapshot (at 0) and ~400 characters typed each second, in batches of 20 s.
  const filler = (s: number) =>
    Array.from({ length: 64 }, (_, i) => ((s * 64 + i) * 2654435761 >>> 0).toString(36)).join("");
  const opening = resetEvents()[0].slice(0, 2); // the Meta and the snapshot
  const seconds: TestEvent[][] = [];
  for (let b = 0; b < 23; b++) {
    const batch = b === 0 ? [...opening] : [];
    for (let s = b * 20; s < (b + 1) * 20; s++) {
      batch.push(typed(s * 1000 + 100, filler(s)), mouse(s * 1000 + 200));
    }
    seconds.push(batch);
  }
  const session = await w.record(seconds);
  const answer = async (window: Record<string, number>) => {
    const { body } = await w.share(window, undefined, session);
    const res = await page(t, `${pathOf(body.url)}/events`);
    assert.equal(res.status, 200);
    const bytes = (await res.clone().arrayBuffer()).byteLength;
    return { bytes, events: (await eventsOf(res)).flat() };
  };
  const whole = await answer({});
  const window = await answer({ startMs: 400_000, endMs: 440_000 });
  assert.equal(whole.events.length, 2 + 460 * 2);
  assert.ok(window.events.every((e) => e.timestamp >= T0 + 400_000 && e.timestamp <= T0 + 440_000));
  // Meta, snapshot, the field's value and the pointer at 400 s, then 40 s of a field and a pointer.
  assert.equal(window.events.length, 4 + 40 * 2);
  assert.ok(JSON.stringify(window.events[1].data).includes(filler(399)), "the field at 400 s");
  assert.ok(!JSON.stringify(window.events).includes(filler(398)), "not what it held before");
  // 41 of the 460 fields' texts: well under a sixth of the whole session's bytes.
  assert.ok(window.bytes * 6 < whole.bytes, `${window.bytes} of ${whole.bytes} bytes`);
});

Deno.test("public link: a window at 0 drops nothing before the first snapshot's Meta; the console only when chosen and from the start", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const plain = await w.share({});
  const all = (await eventsOf(await page(t, `${pathOf(plain.body.url)}/events`))).flat();
  assert.equal(all[0].timestamp, T0);
  assert.equal(all.at(-1)!.timestamp, T0 + 100_000, "no end: to the session's last event");
  assert.ok(all.every((e) => e.type !== 6 && e.type !== 5));

  const shown = await w.share({ startMs: 40_000, endMs: 70_000, showConsole: true });
  const events = (await eventsOf(await page(t, `${pathOf(shown.body.url)}/events`))).flat();
  const logs = events.filter((e) => e.type === 6).map((e) => e.timestamp - T0);
  // The log at 35.5 s is before the window's start: left out, as is everything after 70 s.
  assert.deepEqual(logs, [55_500]);
});

Deno.test("public link: the page and its events hold no tracked user, organization, project or other session", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { body } = await w.share({ startMs: 40_000, endMs: 70_000 });
  const path = pathOf(body.url);
  const html = await (await page(t, path)).text();
  const eventsRes = await page(t, `${path}/events`);
  const raw = await eventsRes.clone().text();
  const decoded = JSON.stringify(await eventsOf(eventsRes));
  // A link to the whole session: its page holds the markers from the start (identify's among
  // them, in the database), its events the identify() call itself.
  const wholePath = pathOf((await w.share({ showConsole: true })).body.url);
  const wholeHtml = await (await page(t, wholePath)).text();
  const whole = await (await page(t, `${wholePath}/events`)).json();
  const wholeDecoded = JSON.stringify(
    await Promise.all(whole.batches.map((b: { data: string }) => decodeBatch(b.data))),
  );
  for (
    const secret of [
      PERSON.userId,
      PERSON.name,
      PERSON.email,
      PERSON.plan,
      "Hidden Org Name",
      "Secret Project Name",
      w.otherSessionId,
      w.sessionId,
      w.owner.organizationId,
    ]
  ) {
    for (const [what, text] of [["page", html], ["events", raw], ["decoded", decoded]]) {
      assert.ok(!text.includes(secret), `${what} holds ${secret}`);
    }
    assert.ok(!wholeDecoded.includes(secret), `a link to the whole session holds ${secret}`);
    assert.ok(!wholeHtml.includes(secret), `the whole session's page holds ${secret}`);
  }
  // The page is the replay: the player's island with the token's events endpoint.
  assert.match(html, /Shared replay/);
  assert.ok(html.includes(`${path}/events`));
});

Deno.test("public link: page, events and 404 answers are no-referrer, noindex, no-store, under the replay's CSP", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { body } = await w.share({});
  const path = pathOf(body.url);
  const unknown = "/s/" + "A".repeat(43);
  for (const [target, status] of [[path, 200], [`${path}/events`, 200], [unknown, 404]] as const) {
    const res = await page(t, target);
    await res.body?.cancel();
    assert.equal(res.status, status, target);
    assert.equal(res.headers.get("referrer-policy"), "no-referrer", target);
    assert.match(res.headers.get("x-robots-tag") ?? "", /noindex/, target);
    assert.equal(res.headers.get("cache-control"), "no-store", target);
    assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'none'/, target);
  }
});

Deno.test("public link: revoked, expired, unknown and deleted all answer the same 404 page", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const make = async () => pathOf((await w.share({})).body.url);
  const revoked = await make();
  const revokedId = (await w.db.selectFrom("session_shares").select("id").executeTakeFirstOrThrow())
    .id;
  await w.api("DELETE", `/api/shares/${revokedId}`);
  const expired = await make();
  await w.db.updateTable("session_shares").set({ expires_at: new Date(Date.now() - 1) })
    .where("revoked_at", "is", null).execute();
  const unknown = "/s/" + "b".repeat(43);
  const pages: string[] = [];
  for (const path of [revoked, expired, unknown]) {
    const res = await page(t, path);
    assert.equal(res.status, 404);
    pages.push(await res.text());
  }
  const deleted = await make();
  await w.db.deleteFrom("sessions").where("id", "=", w.sessionId).execute();
  const res = await page(t, deleted);
  assert.equal(res.status, 404);
  pages.push(await res.text());
  assert.ok(pages.every((p) => p === pages[0]), "one page for every reason");
  assert.match(pages[0], /This link is not available/);
});

Deno.test("public link: the token opens no /api route", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  const { body } = await w.share({});
  const token = pathOf(body.url).slice(3);
  for (
    const path of [
      `/api/sessions/${w.sessionId}`,
      `/api/sessions/${w.sessionId}/events`,
      `/api/sessions/${w.sessionId}/shares`,
      "/api/sessions",
    ]
  ) {
    for (
      const headers of [
        { cookie: `playhead_session=${token}` },
        { authorization: `Bearer ${token}` },
      ] as Record<string, string>[]
    ) {
      const res = await t.app.request(path, { headers });
      assert.equal(res.status, 401, `${path} with ${Object.keys(headers)[0]}`);
      await res.body?.cancel();
    }
    const res = await t.app.request(`${path}?token=${token}`);
    assert.equal(res.status, 401, `${path}?token=`);
    await res.body?.cancel();
  }
});

Deno.test("public link: past 20 unknown tokens a minute from one address, 429 until the oldest leaves the minute", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  let now = 1_000_000;
  setGuessThrottle(t.deps, new GuessThrottle(() => now));
  const good = pathOf((await w.share({})).body.url);
  const from = (address: string, path: string) =>
    t.app.request(path, {}, { remoteAddr: { hostname: address, port: 1, transport: "tcp" } });
  const guess = (n: number) => "/s/" + String(n).padStart(43, "x");
  for (let n = 0; n < 20; n++) {
    const res = await from("198.51.100.7", n % 2 ? guess(n) : `${guess(n)}/events`);
    assert.equal(res.status, 404, `guess ${n + 1}`);
    await res.body?.cancel();
    now += 1_000;
  }
  // The 21st: refused before any lookup, a known link included.
  for (const path of [guess(21), good, `${good}/events`]) {
    const res = await from("198.51.100.7", path);
    assert.equal(res.status, 429, path);
    assert.equal(res.headers.get("retry-after"), "40"); // the first miss (at 0 s) leaves at 60 s
    await res.body?.cancel();
  }
  // A known link never counts, and another address is not held.
  assert.equal((await from("198.51.100.8", good)).status, 200);
  // 60 s after the first miss it leaves the window: one more guess is allowed.
  now = 1_000_000 + 60_000;
  const res = await from("198.51.100.7", guess(22));
  assert.equal(res.status, 404);
  await res.body?.cancel();
  const again = await from("198.51.100.7", guess(23));
  assert.equal(again.status, 429);
  await again.body?.cancel();
});

Deno.test("public link: requests under /s/ not shaped like a token (a recorded page's relative addresses) are no guesses", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  setGuessThrottle(t.deps, new GuessThrottle(() => 1_000_000));
  const first = pathOf((await w.share({})).body.url);
  const second = pathOf((await w.share({ startMs: 40_000 })).body.url);
  const from = (path: string) =>
    t.app.request(path, {}, { remoteAddr: { hostname: "203.0.113.9", port: 1, transport: "tcp" } });
  // What a recorded page's relative `src`/`href` resolve to under the link's address, 25 times;
  // 42 and 44 characters of a token's alphabet are not its shape either.
  const relative = [
    "logo.png",
    "events",
    "site.css",
    "img%2Fhero.jpg",
    "x".repeat(42),
    "x".repeat(44),
  ];
  for (let n = 0; n < 25; n++) {
    const res = await from(`/s/${relative[n % relative.length]}`);
    assert.equal(res.status, 404, `request ${n + 1}`);
    await res.body?.cancel();
  }
  for (const path of [first, second, `${second}/events`]) {
    const res = await from(path);
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
  }
});
