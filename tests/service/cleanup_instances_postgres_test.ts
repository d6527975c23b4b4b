// The daily cleanup on two instances of one PostgreSQL database: both crons fire at 03:30 (a
// controlled clock), one sweeps, and one only, that day; the next day it sweeps again.
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { sql } from "kysely";
import { createDeps } from "@/core/deps.ts";
import { loadConfig } from "@/config.ts";
import { openDb } from "@/db/client.ts";
import { scheduleCleanup } from "@/core/service/cleanup_schedule.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";

const DAY = 86_400_000;
const URL_ = postgresUrl();

Deno.test({
  name: "daily cleanup: two instances fire the cron at the same moment; one sweeps, once a day",
  fn: async () => {
    // The last 03:30 UTC, not a later one: rows the database stamps with its own clock must not be
    // older than the test's "now" (an organization left without members is swept after a while).
    // Only Date is faked, so the database driver keeps its own timers.
    const at0330 = Math.floor(Date.now() / DAY) * DAY + (3 * 60 + 30) * 60_000;
    const today = at0330 > Date.now() ? at0330 - DAY : at0330;
    const clock = FakeTimers.withGlobal(globalThis).install({ now: today, toFake: ["Date"] });
    try {
      await using t = await createTestApp();
      // The second instance: its own pool and its own deps on the same database.
      const { rows: [{ name }] } = await sql<{ name: string }>`SELECT current_database() AS name`
        .execute(t.db.kysely);
      const url = new URL(URL_);
      url.pathname = `/${name}`;
      const otherDb = await openDb({ kind: "postgres", url: url.toString(), max: 4 });
      try {
        const other = createDeps(loadConfig({ NODE_ENV: "test" }), otherDb);
        const crons: Array<() => Promise<void>> = [];
        for (const deps of [t.deps, other]) {
          scheduleCleanup(deps, (_name, schedule, handler) => {
            assert.equal(schedule, "30 3 * * *");
            crons.push(handler);
          });
        }
        assert.equal(crons.length, 2);
        const project = await insertProject(t.db.kysely);
        const expired = () =>
          insertSession(t.db.kysely, project, {
            createdAt: new Date(Date.now() - 8 * DAY),
          });
        const kept = await insertSession(t.db.kysely, project);
        const sweeps = () => t.logs.filter((l) => l.tag === "cron:cleanup:start").length;
        const sessions = async () =>
          (await t.db.kysely.selectFrom("sessions").select("id").execute()).map((r) => r.id);

        const first = await expired();
        await Promise.all(crons.map((fire) => fire()));
        assert.equal(sweeps(), 1, "both instances swept");
        const skips = t.logs.filter((l) => l.tag === "cron:cleanup:skipped");
        assert.equal(skips.length, 1);
        assert.deepEqual(await sessions(), [kept.id]);
        assert.ok(!(await sessions()).includes(first.id));

        // An instance whose clock runs behind fires after the run has finished: still once.
        clock.tick(2_000);
        const late = await expired();
        for (const fire of crons) await fire();
        assert.equal(sweeps(), 1, "the day's cleanup ran again");
        assert.ok((await sessions()).includes(late.id));

        // The next day's 03:30: one sweep more, and the late expired session goes.
        clock.setSystemTime(today + DAY);
        await Promise.all(crons.map((fire) => fire()));
        assert.equal(sweeps(), 2);
        assert.ok(!(await sessions()).includes(late.id));
        assert.ok(!t.logs.some((l) => l.tag === "cron:cleanup:failed"));
      } finally {
        await otherDb.close();
      }
    } finally {
      clock.uninstall();
    }
  },
});
