// Comments on a moment: every member writes and reads them, the author or an ADMIN+
// deletes one, the text is kept exactly as written, and the sessions list finds sessions by them.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { sharesWorld } from "@/tests/helpers/shares_world.ts";

const XSS = `<img src=x onerror="alert(1)"> see https://bugs.test/1?a=b&c=d`;

Deno.test("comments: a VIEWER writes one at 42,000 ms; every member reads them in time order", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const viewer = await w.member("VIEWER");
  const path = `/api/sessions/${w.sessionId}/comments`;
  const made = await w.api("POST", path, viewer.cookie, { offsetMs: 42_000, text: `  ${XSS} ` });
  assert.equal(made.status, 201);
  assert.match(made.headers.get("content-type") ?? "", /json/);
  const body = await made.json();
  assert.equal(body.offsetMs, 42_000);
  assert.equal(body.text, XSS, "kept as written, only trimmed");
  assert.equal(body.authorId, viewer.user.id);
  assert.equal(
    (await w.api("POST", path, w.owner.cookie, { offsetMs: 5, text: "first" })).status,
    201,
  );
  const list = await w.api("GET", path, viewer.cookie);
  assert.equal(list.status, 200);
  assert.equal(list.headers.get("cache-control"), "no-store");
  const { comments } = await list.json();
  assert.deepEqual(comments.map((c: { offsetMs: number }) => c.offsetMs), [5, 42_000]);
  // Another organization's member finds no session there.
  const stranger = await signedInUser(t);
  assert.equal((await w.api("GET", path, stranger.cookie)).status, 404);
  assert.equal(
    (await w.api("POST", path, stranger.cookie, { offsetMs: 1, text: "x" })).status,
    404,
  );
});

Deno.test("comments: text is 1..2,000 characters after trimming, offsetMs 0..the session's duration", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const path = `/api/sessions/${w.sessionId}/comments`;
  for (
    const [input, status] of [
      [{ offsetMs: 0, text: "a" }, 201],
      [{ offsetMs: 0, text: "" }, 400],
      [{ offsetMs: 0, text: "   " }, 400],
      [{ offsetMs: 0, text: "x".repeat(2_000) }, 201],
      [{ offsetMs: 0, text: "x".repeat(2_001) }, 400],
      [{ offsetMs: -1, text: "a" }, 400],
      [{ offsetMs: 1.5, text: "a" }, 400],
      [{ offsetMs: 100_000, text: "at the very end" }, 201], // the session lasts 100 s
      [{ offsetMs: 100_001, text: "past it" }, 400],
      [{ text: "no moment" }, 400],
    ] as const
  ) {
    const res = await w.api("POST", path, w.owner.cookie, input);
    assert.equal(res.status, status, JSON.stringify(input).slice(0, 60));
    await res.body?.cancel();
  }
  const { comments } = await (await w.api("GET", path)).json();
  assert.equal(comments.length, 3, "nothing refused was stored");
});

Deno.test("comments: the author or an ADMIN+ deletes one; another VIEWER gets 403, another organization 404", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const author = await w.member("VIEWER");
  const other = await w.member("VIEWER");
  const admin = await w.member("ADMIN");
  const write = async () =>
    (await (await w.api("POST", `/api/sessions/${w.sessionId}/comments`, author.cookie, {
      offsetMs: 1_000,
      text: "hm",
    })).json()).id;
  const first = await write();
  assert.equal((await w.api("DELETE", `/api/comments/${first}`, other.cookie)).status, 403);
  const stranger = await signedInUser(t);
  assert.equal((await w.api("DELETE", `/api/comments/${first}`, stranger.cookie)).status, 404);
  assert.equal((await w.api("DELETE", `/api/comments/${first}`, author.cookie)).status, 204);
  assert.equal((await w.api("DELETE", `/api/comments/${first}`, author.cookie)).status, 404);
  const second = await write();
  assert.equal((await w.api("DELETE", `/api/comments/${second}`, admin.cookie)).status, 204);
});

Deno.test("comments: the sessions list filters by hasComments and comment (case-insensitive) and counts them", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  await w.api("POST", `/api/sessions/${w.sessionId}/comments`, w.owner.cookie, {
    offsetMs: 42_000,
    text: "Checkout button does NOTHING here",
  });
  await w.api("POST", `/api/sessions/${w.sessionId}/comments`, w.owner.cookie, {
    offsetMs: 50_000,
    text: "50% off_banner",
  });
  const ids = async (query: string) => {
    const res = await w.api("GET", `/api/sessions?${query}`);
    assert.equal(res.status, 200, query);
    return (await res.json()).data.map((s: { id: string }) => s.id).sort();
  };
  assert.deepEqual(await ids("hasComments=true"), [w.sessionId]);
  assert.deepEqual(await ids("hasComments=false"), [w.otherSessionId]);
  assert.deepEqual(await ids("comment=does%20nothing"), [w.sessionId]);
  assert.deepEqual(await ids("comment=CHECKOUT"), [w.sessionId]);
  assert.deepEqual(await ids("comment=nothing%20at%20all"), []);
  // LIKE's wildcards are literal: "%" and "_" match only themselves.
  assert.deepEqual(await ids("comment=50%25%20off_"), [w.sessionId]);
  assert.deepEqual(await ids("comment=5_%25"), []);
  assert.equal((await w.api("GET", "/api/sessions?hasComments=yes")).status, 400);
  const all = (await (await w.api("GET", "/api/sessions")).json()).data;
  const count = (id: string) => all.find((s: { id: string }) => s.id === id).commentCount;
  assert.equal(count(w.sessionId), 2);
  assert.equal(count(w.otherSessionId), 0);
});
