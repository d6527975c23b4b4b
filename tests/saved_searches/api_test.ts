// Saved searches: any member (VIEWER included) saves a sessions page query; its author or an
// ADMIN+ changes or deletes it; bad input is a 400 naming the field; newCount counts the sessions
// started since that member last opened it, and opening it marks it seen.
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import { countMatching } from "@/core/saved_searches/count.ts";

const API = "/api/saved-searches";

Deno.test("saved searches: a VIEWER saves one; another VIEWER gets 403 on change and delete, its author and an ADMIN may; bad input is a 400 naming the field", async () => {
  await using t = await createTestApp();
  const owner = await signedInUser(t);
  const org = owner.organizationId;
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: org });
  const other = await signedInUser(t, { role: "VIEWER", organizationId: org });
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: org });
  const api = (method: string, path: string, cookie: string, body?: unknown) =>
    call(t.app, method, path, { cookie, body });

  const made = await api("POST", API, viewer.cookie, {
    name: "  Rage on \u202Echeckout  ",
    query: "?signals=rage_click&cursor=abc&visited=%2Fcheckout*&range=all&signals=error",
  });
  assert.equal(made.status, 201);
  const search = await made.json();
  assert.equal(search.name, "Rage on checkout", "trimmed, bidi controls removed");
  assert.equal(search.query, "visited=%2Fcheckout*&signals=rage_click&signals=error");
  assert.equal(search.href, `/sessions?${search.query}`);
  assert.equal(search.canEdit, true);

  const id = search.id;
  const status = async (method: string, cookie: string, body?: unknown) => {
    const res = await api(method, `${API}/${id}`, cookie, body);
    await res.body?.cancel();
    return res.status;
  };
  assert.equal(await status("PATCH", other.cookie, { name: "mine now" }), 403);
  assert.equal(await status("DELETE", other.cookie), 403);
  const listed = (await (await api("GET", API, other.cookie)).json()).data;
  assert.deepEqual(listed.map((s: { name: string; canEdit: boolean }) => [s.name, s.canEdit]), [
    ["Rage on checkout", false],
  ], "shared with the organization, unchanged by the refusals");
  assert.equal(await status("PATCH", viewer.cookie, { name: "Checkout rage" }), 200);
  assert.equal(await status("PATCH", admin.cookie, { query: "device=mobile" }), 200);
  const stranger = await signedInUser(t);
  assert.equal(await status("PATCH", stranger.cookie, { name: "x" }), 404);

  const refused = async (body: unknown, path = API, method = "POST") => {
    const res = await api(method, path, viewer.cookie, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    return (await res.json()).issues.map((issue: { path: string }) => issue.path);
  };
  assert.deepEqual(await refused({ name: "", query: "" }), ["name"]);
  assert.deepEqual(await refused({ name: "\u202E \u2066", query: "" }), ["name"]);
  assert.deepEqual(await refused({ name: "x".repeat(101), query: "" }), ["name"]);
  assert.equal(
    (await api("POST", API, viewer.cookie, { name: "x".repeat(100), query: "" })).status,
    201,
  );
  assert.deepEqual(await refused({ name: "a", query: "colour=red" }), ["query.colour"]);
  assert.deepEqual(await refused({ name: "a", query: "device=toaster" }), ["query.device"]);
  assert.deepEqual(await refused({ name: "a", query: "signals=rage" }), ["query.signals.0"]);
  assert.deepEqual(await refused({ query: "range=1y" }, `${API}/${id}`, "PATCH"), ["query.range"]);

  const after = (await (await api("GET", API, owner.cookie)).json()).data
    .find((s: { id: string }) => s.id === id);
  assert.equal(after.name, "Checkout rage");
  assert.equal(after.query, "device=mobile", "a refused change changed nothing");
  assert.equal(await status("DELETE", viewer.cookie), 204, "its author deletes it");
  const again = await (await api("POST", API, viewer.cookie, { name: "b", query: "" })).json();
  assert.equal((await api("DELETE", `${API}/${again.id}`, admin.cookie)).status, 204);
});

Deno.test("saved searches: newCount counts the matching sessions started since that member last opened it; opening marks it seen", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const owner = await signedInUser(t);
  const org = owner.organizationId;
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: org });
  const shop = await insertProject(db, { organizationId: org, name: "Shop" });
  const blog = await insertProject(db, { organizationId: org, name: "Blog" });
  const T = Date.parse("2026-03-01T10:00:00.000Z");
  const clock = FakeTimers.withGlobal(globalThis).install({ now: T, toFake: ["Date"] });
  try {
    const api = (method: string, path: string, cookie: string, body?: unknown) =>
      call(t.app, method, path, { cookie, body });
    const started = (project: { id: string; organization_id: string }, ms: number) =>
      insertSession(db, project, { createdAt: new Date(ms), startedAt: new Date(ms) });
    const made = await (await api("POST", API, owner.cookie, {
      name: "Shop",
      query: `projectIds=${shop.id}`,
    })).json();
    const counts = async (cookie: string) =>
      (await (await api("GET", API, cookie)).json()).data[0].newCount;
    await started(shop, T - 1); // before it was created: never new
    await started(shop, T); // at its creation: new to whoever has not opened it
    assert.equal(await counts(owner.cookie), 0, "nothing has started yet at T");
    clock.tick(10_000);
    await started(shop, T + 5_000);
    await started(blog, T + 6_000); // another project: not in the search
    assert.equal(await counts(owner.cookie), 2);
    assert.equal(await counts(viewer.cookie), 2);

    const opened = await api("GET", `${API}/${made.id}/open`, owner.cookie);
    assert.deepEqual(await opened.json(), {
      href: `/sessions?projectIds=${shop.id}`,
      openedAt: new Date(T + 10_000).toISOString(),
    });
    await started(shop, T + 9_999); // just before the open
    await started(shop, T + 10_000); // at it
    clock.tick(5_000);
    await started(shop, T + 10_001); // after it
    assert.equal(await counts(owner.cookie), 2, "at and after the open, not before");
    assert.equal(await counts(viewer.cookie), 5, "the viewer has never opened it");

    const browser = await call(t.app, "GET", `${API}/${made.id}/open`, {
      cookie: viewer.cookie,
      headers: { Accept: "text/html" },
    });
    assert.equal(browser.status, 303);
    assert.equal(browser.headers.get("location"), `/sessions?projectIds=${shop.id}`);
    assert.equal(await counts(viewer.cookie), 0, "opening through a link marks it seen");
    assert.equal(await counts(owner.cookie), 2, "for that member only");

    // The window is [from, to); past the cap the count stops at cap + 1 (shown "1,000+").
    const search = { organizationId: org, query: made.query };
    const count = (from: number, to: number, cap?: number) =>
      countMatching(db, search, new Date(from), new Date(to), cap);
    assert.equal(await count(T, T + 10_000), 3, "T, T+5 s, T+9.999 s; not T+10 s");
    assert.equal(await count(T, T + 10_001), 4);
    assert.equal(await count(T - 1, T + 20_000, 6), 6, "at the cap");
    assert.equal(await count(T - 1, T + 20_000, 4), 5, "past it: cap + 1, not all 6");
    assert.equal(await count(T - 1, T + 20_000, 7), 6, "under it");
  } finally {
    clock.uninstall();
  }
});
