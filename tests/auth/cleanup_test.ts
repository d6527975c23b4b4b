// The daily cleanup's sweep of sign-in leftovers: spent, burned and expired one-time codes and
// send counters older than yesterday go; live codes and today's and yesterday's counters stay.
import assert from "node:assert/strict";
import { createId } from "@paralleldrive/cuid2";
import { runCleanup } from "@/core/service/cleanup.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";

const DAY = 86_400_000;

async function prepare(t: TestApp, now: number) {
  const db = t.db.kysely;
  const code = (
    email: string,
    fields: { attempts?: number; expiresIn: number; consumed?: boolean },
  ) =>
    db.insertInto("otp_codes").values({
      id: createId(),
      email,
      code_hash: "h",
      attempts: fields.attempts ?? 0,
      expires_at: new Date(now + fields.expiresIn),
      consumed_at: fields.consumed ? new Date(now - 1000) : null,
    }).returning("email").executeTakeFirstOrThrow();
  await code("consumed@x.test", { expiresIn: 60_000, consumed: true });
  await code("burned@x.test", { expiresIn: 60_000, attempts: 5 });
  await code("expired@x.test", { expiresIn: -1000 });
  await code("live@x.test", { expiresIn: 60_000, attempts: 4 });

  const day = (offset: number) => new Date(now - offset * DAY).toISOString().slice(0, 10);
  for (const [email, offset] of [["a", 0], ["a", 1], ["a", 2], ["b", 10]] as const) {
    await db.insertInto("otp_send_counters")
      .values({ email, day: day(offset), count: 1, last_sent_at: new Date(now - offset * DAY) })
      .execute();
  }
  return { today: day(0), yesterday: day(1) };
}

Deno.test("cleanup: spent and expired one-time codes and counters before yesterday go, counted in the summary", async () => {
  await using t = await createTestApp();
  const now = Date.now();
  const { today, yesterday } = await prepare(t, now);
  const result = await runCleanup(t.deps, new Date(now), { chunkRows: 1 });
  assert.deepEqual(result, {
    invites: 0,
    sessions: 0,
    trackedUsers: 0,
    organizations: 0,
    skipped: false,
  });
  const codes = await t.db.kysely.selectFrom("otp_codes").select("email").execute();
  assert.deepEqual(codes.map((c) => c.email), ["live@x.test"]);
  const counters = await t.db.kysely.selectFrom("otp_send_counters")
    .select(["email", "day"]).orderBy("day").execute();
  assert.deepEqual(
    counters.map((c) => [c.email, new Date(c.day).toISOString().slice(0, 10)]),
    [["a", yesterday], ["a", today]],
  );
  const summary = t.logs.find((l) => l.tag === "cron:cleanup:summary");
  assert.equal(summary?.level, "info");
  assert.equal(summary?.props.otpCodes, 3);
  assert.equal(summary?.props.otpSendCounters, 2);
});
