// A project's recording settings (docs/decisions.md "Capture control"): GET /api/projects/:id
// shows them, PATCH with `recording` (alone, or beside a name) changes only the settings it names;
// every bound is held at and on both sides of its value, a bad value is 400 naming its field, and
// nothing of that request is stored.
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";

const DEFAULTS = {
  sampleRate: 1,
  minDurationMs: 0,
  urlBlock: [],
  urlAllow: [],
  triggers: [],
  bufferMs: 60_000,
};

async function world(t: TestApp) {
  const owner = await signedInUser(t);
  const orgId = owner.organizationId;
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: orgId });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: orgId });
  const stranger = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: orgId, name: "Shop" });
  const path = `/api/projects/${project.id}`;
  const get = async (cookie = viewer.cookie) => await call(t.app, "GET", path, { cookie });
  const patch = async (body: unknown, cookie = admin.cookie) =>
    await call(t.app, "PATCH", path, { cookie, body });
  return { owner, admin, viewer, stranger, project, path, get, patch };
}

Deno.test("recording settings: GET /api/projects/:id answers the defaults to a VIEWER, no-store; another organization 404", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const res = await w.get();
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  assert.equal(body.id, w.project.id);
  assert.equal(body.name, "Shop");
  assert.deepEqual(body.recording, DEFAULTS);
  assert.equal((await w.get(w.stranger.cookie)).status, 404);
  assert.equal((await call(t.app, "GET", w.path)).status, 401);
});

Deno.test("recording settings: an ADMIN's PATCH with recording alone changes the settings it names, and nothing else", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const res = await w.patch({ recording: { sampleRate: 0.25, triggers: ["error", "rage_click"] } });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.name, "Shop");
  assert.deepEqual(body.recording, {
    ...DEFAULTS,
    sampleRate: 0.25,
    triggers: ["error", "rage_click"],
  });
  const second = await w.patch({
    recording: { urlBlock: ["/admin/**", "/admin/**", "/account/*"], bufferMs: 90_000 },
  });
  assert.equal(second.status, 200);
  assert.deepEqual((await (await w.get()).json()).recording, {
    ...DEFAULTS,
    sampleRate: 0.25,
    triggers: ["error", "rage_click"],
    urlBlock: ["/admin/**", "/account/*"], // a repeat is kept once
    bufferMs: 90_000,
  });
  // a VIEWER reads them but may not change them
  assert.equal((await w.patch({ recording: { sampleRate: 1 } }, w.viewer.cookie)).status, 403);
  assert.equal((await w.patch({ recording: { sampleRate: 1 } }, w.stranger.cookie)).status, 404);
  assert.equal((await (await w.get()).json()).recording.sampleRate, 0.25);
});

Deno.test("recording settings: every bound holds at its value and refuses past it with 400 naming the field; nothing changes", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const globs = (n: number) => Array.from({ length: n }, (_, i) => `/p${i}/*`);
  const good: Record<string, unknown>[] = [
    { sampleRate: 0 },
    { sampleRate: 1 },
    { sampleRate: 0.5 },
    { minDurationMs: 0 },
    { minDurationMs: 60_000 },
    { bufferMs: 30_000 },
    { bufferMs: 120_000 },
    { urlBlock: globs(50) },
    { urlAllow: globs(50) },
    { urlAllow: [] },
    { urlBlock: ["/" + "a".repeat(199)] },
    { triggers: ["error", "rage_click", "dead_click"] },
    { triggers: [] },
  ];
  for (const recording of good) {
    const res = await w.patch({ recording });
    assert.equal(res.status, 200, JSON.stringify(recording));
    const [field, value] = Object.entries(recording)[0];
    assert.deepEqual((await res.json()).recording[field], value);
  }
  const before = await (await w.get()).json();
  const bad: [Record<string, unknown>, string][] = [
    [{ sampleRate: -0.01 }, "recording.sampleRate"],
    [{ sampleRate: 1.01 }, "recording.sampleRate"],
    [{ sampleRate: "0.5" }, "recording.sampleRate"],
    [{ minDurationMs: -1 }, "recording.minDurationMs"],
    [{ minDurationMs: 60_001 }, "recording.minDurationMs"],
    [{ minDurationMs: 2.5 }, "recording.minDurationMs"],
    [{ bufferMs: 29_999 }, "recording.bufferMs"],
    [{ bufferMs: 120_001 }, "recording.bufferMs"],
    [{ urlBlock: globs(51) }, "recording.urlBlock"],
    [{ urlAllow: globs(51) }, "recording.urlAllow"],
    [{ urlBlock: ["admin/*"] }, "recording.urlBlock.0"],
    [{ urlAllow: ["/ok", "/has space"] }, "recording.urlAllow.1"],
    [{ urlBlock: ["/" + "a".repeat(200)] }, "recording.urlBlock.0"],
    [{ triggers: ["crash"] }, "recording.triggers.0"],
    [{ sampleRat: 0.5 }, "recording"],
  ];
  for (const [recording, field] of bad) {
    // a valid name beside the bad value is not stored either
    const res = await w.patch({ name: "Renamed", recording });
    assert.equal(res.status, 400, JSON.stringify(recording));
    const body = await res.json();
    assert.equal(body.kind, "validation");
    assert.ok(
      body.issues.some((i: { path: string }) => i.path === field),
      `${JSON.stringify(recording)} names ${field}: ${JSON.stringify(body.issues)}`,
    );
  }
  assert.deepEqual(await (await w.get()).json(), before);
  const empty = await w.patch({});
  assert.equal(empty.status, 400);
});

Deno.test("recording settings: a glob holds at most 8 wildcards (a run of stars is one); 9 is 400 naming the glob", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const stars = (n: number) => "/" + Array.from({ length: n }, (_, i) => `p${i}*`).join("/");
  for (const glob of [stars(7), stars(8), "/a***b/**/?" + "/*".repeat(6)]) {
    const res = await w.patch({ recording: { urlBlock: [glob], urlAllow: [glob] } });
    assert.equal(res.status, 200, glob);
    assert.deepEqual((await res.json()).recording.urlBlock, [glob]);
    const network = await w.patch({ network: { bodyUrls: [glob] } });
    assert.equal(network.status, 200, glob);
  }
  const before = await (await w.get()).json();
  const bad: [Record<string, unknown>, string][] = [
    [{ recording: { urlBlock: [stars(9)] } }, "recording.urlBlock.0"],
    [{ recording: { urlAllow: ["/ok", stars(9)] } }, "recording.urlAllow.1"],
    [{ network: { bodyUrls: [stars(9)] } }, "network.bodyUrls.0"],
  ];
  for (const [body, field] of bad) {
    const res = await w.patch(body);
    assert.equal(res.status, 400, field);
    assert.match(res.headers.get("content-type")!, /application\/json/);
    const answer = await res.json();
    assert.equal(answer.kind, "validation");
    const issue = answer.issues.find((i: { path: string }) => i.path === field);
    assert.ok(issue, `${field}: ${JSON.stringify(answer.issues)}`);
    assert.match(issue.message, /at most 8 wildcards/);
  }
  assert.deepEqual(await (await w.get()).json(), before);
});
