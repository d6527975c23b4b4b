// Keyset pagination of GET /api/sessions as a property: with random data full of ties (and
// createdAt differing only in microseconds), every row present when paging starts is served exactly
// once, in order, while new sessions are inserted between pages.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { insertSessions, type SessionSeed } from "@/tests/helpers/sessions_factories.ts";

/** mulberry32: small, seeded, so a failure names the seed that reproduces it. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ORDERS = [
  ["date", "desc"],
  ["date", "asc"],
  ["duration", "desc"],
  ["duration", "asc"],
] as const;

Deno.test("sessions pagination: every row exactly once under concurrent inserts (property)", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  for (const seed of [1, 2, 3]) {
    const rand = random(seed);
    const base = Date.now() - 3 * 86_400_000;
    // Few distinct instants and durations, so ties on the sort key are the rule.
    const seed_ = (): SessionSeed => ({
      createdAt: new Date(base + Math.floor(rand() * 8) * 1000),
      durationMs: rand() < 0.1 ? null : Math.floor(rand() * 5) * 1000,
    });
    await w.db.deleteFrom("sessions").execute();
    await insertSessions(
      w.db,
      w.alpha,
      Array.from({ length: 40 + Math.floor(rand() * 40) }, seed_),
    );
    await insertSessions(w.db, w.beta, Array.from({ length: 20 }, seed_));
    // Some rows a microsecond apart: a millisecond cursor would skip or repeat them.
    await sql`UPDATE sessions SET started_at = started_at + (abs(hashtext(id)) % 3) * interval '1 microsecond'`
      .execute(w.db);
    const initial = (await w.db.selectFrom("sessions").select("id")
      .where("organization_id", "=", w.me.organizationId).execute()).map((r) => r.id);

    for (const [sort, dir] of ORDERS) {
      const seen: { id: string; startedAt: string; duration: number }[] = [];
      let cursor: string | null = null;
      // Each page holds a row or ends the list, and one row is added per page: a cursor that
      // never ends fails at this many pages instead of hanging.
      let pages = 0;
      do {
        assert.ok(++pages <= 2 * initial.length + 10, `${sort} ${dir}: the cursor never ended`);
        const limit = 1 + Math.floor(rand() * 9);
        const q = `sort=${sort}&sortDir=${dir}&limit=${limit}` +
          (cursor ? `&cursor=${cursor}` : "");
        const { res, body } = await w.get(`/api/sessions?${q}`);
        assert.equal(res.status, 200);
        assert.ok(body.data.length <= limit);
        seen.push(...body.data);
        cursor = body.nextCursor;
        // Concurrent ingest: new sessions now (any duration) between pages.
        await insertSessions(w.db, w.alpha, [{ durationMs: Math.floor(rand() * 5) * 1000 }]);
      } while (cursor);

      const label = `seed ${seed}, ${sort} ${dir}`;
      const counts = new Map<string, number>();
      for (const s of seen) counts.set(s.id, (counts.get(s.id) ?? 0) + 1);
      assert.ok([...counts.values()].every((n) => n === 1), `${label}: a row repeated`);
      for (const id of initial) assert.ok(counts.has(id), `${label}: row ${id} skipped`);
      const keys = seen.map((s) => sort === "date" ? Date.parse(s.startedAt) : s.duration);
      for (let i = 1; i < keys.length; i++) {
        const ok = dir === "desc" ? keys[i] <= keys[i - 1] : keys[i] >= keys[i - 1];
        assert.ok(ok, `${label}: out of order at ${i}`);
      }
    }
  }
});
