// GET /api/sessions' network filters: `signals=network_error`, `minRequestMs` (at and both sides
// of a session's slowest request), `vital=name:rating`; `networkErrorCount` in the items; 400 for
// a vital that is not one.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";

const ids = (body: { data: { id: string }[] }) => body.data.map((s) => s.id).sort();

Deno.test("sessions search: failed requests, the slowest request and web vitals", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const a = await insertSession(w.db, w.alpha, {});
  const b = await insertSession(w.db, w.alpha, {});
  const c = await insertSession(w.db, w.beta, {});
  const foreign = await insertSession(w.db, w.foreign, {});
  const set = (id: string, values: Record<string, unknown>) =>
    w.db.updateTable("sessions").set(values).where("id", "=", id).execute();
  await set(a.id, { network_error_count: 2, max_request_ms: 1200, web_vitals: ["lcp:poor"] });
  await set(b.id, { max_request_ms: 300, web_vitals: ["lcp:good", "cls:needs_improvement"] });
  await set(c.id, { error_count: 1 });
  await set(foreign.id, { network_error_count: 5, max_request_ms: 9000, web_vitals: ["lcp:poor"] });
  const cases: [string, string[]][] = [
    ["signals=network_error", [a.id]],
    ["signals=network_error,error", []],
    ["signals=error", [c.id]],
    ["minRequestMs=1199", [a.id]],
    ["minRequestMs=1200", [a.id]],
    ["minRequestMs=1201", []],
    ["minRequestMs=300", [a.id, b.id]],
    ["vital=lcp:poor", [a.id]],
    ["vital=LCP:good", [b.id]],
    ["vital=lcp:poor,cls:needs_improvement", [a.id, b.id]],
    ["vital=inp:poor", []],
  ];
  for (const [query, expected] of cases) {
    const { res, body } = await w.get(`/api/sessions?${query}`);
    assert.equal(res.status, 200, query);
    assert.deepEqual(ids(body), [...expected].sort(), query);
  }
  const { body } = await w.get(`/api/sessions?signals=network_error`);
  assert.equal(body.data[0].networkErrorCount, 2);
  for (const bad of ["vital=lcp:bad", "vital=speed:poor", "signals=network", "minRequestMs=-1"]) {
    assert.equal((await w.get(`/api/sessions?${bad}`)).res.status, 400, bad);
  }
});
