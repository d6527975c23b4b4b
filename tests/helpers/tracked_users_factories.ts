// Seeding for tracked-user tests: users with sessions at chosen times (direct SQL, exact
// timestamps), url markers and batches, plus a viewer for calling core/ functions directly.
import { type Kysely, sql } from "kysely";
import type { Database, Role } from "@/db/schema.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import {
  insertBatch,
  insertMarker,
  insertSession,
  insertTrackedUser,
} from "./sessions_factories.ts";

type Db = Kysely<Database>;
type Project = { id: string; organization_id: string };

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** A viewer of the organization, for core/ calls that take `now`. */
export function viewerOf(organizationId: string | null, role: Role | null = "VIEWER"): Viewer {
  return {
    userId: "u-test",
    email: "viewer@example.test",
    activeOrganizationId: organizationId,
    role,
  };
}

export interface SeedSession {
  /** Start (= createdAt) in epoch ms. */
  start: number;
  /** ms; null = open. */
  durationMs?: number | null;
  eventCount?: number;
  url?: string;
}

/** A tracked user created at `createdAt` with the given sessions; returns the user and sessions. */
export async function seedTrackedUser(
  db: Db,
  project: Project,
  options: {
    externalId?: string;
    traits?: Record<string, unknown>;
    customName?: string | null;
    traitKey?: string | null;
    createdAt?: Date;
    sessions?: SeedSession[];
  } = {},
) {
  const user = await insertTrackedUser(db, project, options);
  if (options.createdAt) {
    // created_at is insert-only in the row types; tests pick it.
    await sql`UPDATE tracked_users SET created_at = ${options.createdAt} WHERE id = ${user.id}`
      .execute(db);
  }
  const sessions = [];
  for (const s of options.sessions ?? []) {
    sessions.push(
      await insertSession(db, project, {
        createdAt: new Date(s.start),
        durationMs: s.durationMs === undefined ? MINUTE : s.durationMs,
        eventCount: s.eventCount,
        url: s.url,
        trackedUserId: user.id,
      }),
    );
  }
  return { user, sessions };
}

/** A url marker at `ts` for `pathname` (on https://shop.test). */
export async function urlMarker(db: Db, sessionId: string, ts: number, pathname: string) {
  await insertMarker(db, sessionId, {
    ts,
    kind: "url",
    data: { url: `https://shop.test${pathname}`, pathname },
  });
}

/** A stored batch of `count` events starting at `firstTs`, one millisecond apart. */
export async function batchAt(
  db: Db,
  session: { project_id: string; external_id: string },
  firstTs: number,
  count: number,
) {
  const events = Array.from(
    { length: count },
    (_, i) => ({ type: 3, data: {}, timestamp: firstTs + i }),
  );
  return await insertBatch(db, session, events);
}
