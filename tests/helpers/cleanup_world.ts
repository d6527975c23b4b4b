// The cleanup tests' database: one of everything on either side of each rule.
import { sql } from "kysely";
import type { TestApp } from "@/tests/helpers/app.ts";
import {
  insertMembership,
  insertOrganization,
  insertProject,
  insertUser,
} from "@/tests/helpers/factories.ts";
import {
  insertBatch,
  insertInvite,
  insertMarker,
  insertSession,
  insertTrackedUser,
} from "@/tests/helpers/sessions_factories.ts";

const DAY = 86_400_000;
const MIN = 60_000;

/** One of everything on either side of each rule; returns what must stay and what must go. */
export async function prepare(t: TestApp, now: number) {
  const db = t.db.kysely;
  const ago = (ms: number) => new Date(now - ms);
  const owner = await insertUser(db);
  const org = await insertOrganization(db, "Kept");
  await insertMembership(db, org.id, owner.id, "OWNER");
  const project = await insertProject(db, { organizationId: org.id });

  const invite = (status: "PENDING" | "EXPIRED" | "ACCEPTED" | "DECLINED", expiresAt: Date) =>
    insertInvite(db, org.id, { status, expiresAt });
  const goneInvites = [
    await invite("PENDING", ago(1)),
    await invite("EXPIRED", ago(DAY)),
    await invite("ACCEPTED", ago(-DAY)),
    await invite("DECLINED", ago(-DAY)),
    await invite("ACCEPTED", ago(DAY)),
  ];
  const keptInvites = [await invite("PENDING", ago(-DAY)), await invite("EXPIRED", ago(-MIN))];

  // Tracked users: emptied by the session sweep (goes), still recording (stays), already empty
  // and settled (goes), empty but just identified (stays).
  const emptied = await insertTrackedUser(db, project);
  const active = await insertTrackedUser(db, project);
  const lonely = await insertTrackedUser(db, project);
  const fresh = await insertTrackedUser(db, project);
  await sql`UPDATE tracked_users SET updated_at = ${
    ago(8 * DAY)
  } WHERE id IN (${emptied.id}, ${active.id}, ${lonely.id})`
    .execute(db);

  const old = await insertSession(db, project, {
    createdAt: ago(7 * DAY + MIN),
    trackedUserId: emptied.id,
  });
  await insertBatch(db, old, [{ timestamp: now - 7 * DAY }]);
  await insertMarker(db, old.id, {
    ts: now - 7 * DAY,
    kind: "url",
    data: { url: "/", pathname: "/" },
  });
  const young = await insertSession(db, project, {
    createdAt: ago(7 * DAY - MIN),
    trackedUserId: active.id,
  });

  // An organization left without members that is still someone's active one (goes), and one
  // being created right now (stays).
  const empty = await insertOrganization(db, "Empty");
  await sql`UPDATE organizations SET created_at = ${ago(30 * DAY)} WHERE id = ${empty.id}`.execute(
    db,
  );
  const pointing = await insertUser(db);
  await db.updateTable("users").set({ active_organization_id: empty.id }).where(
    "id",
    "=",
    pointing.id,
  )
    .execute();
  const emptyProject = await insertProject(db, { organizationId: empty.id });
  await insertSession(db, emptyProject);
  const newborn = await insertOrganization(db, "Newborn");

  return {
    org,
    goneInvites,
    keptInvites,
    emptied,
    active,
    lonely,
    fresh,
    old,
    young,
    empty,
    pointing,
    newborn,
  };
}

export async function ids(
  t: TestApp,
  table: "invites" | "sessions" | "tracked_users" | "organizations",
) {
  return new Set((await t.db.kysely.selectFrom(table).select("id").execute()).map((r) => r.id));
}
