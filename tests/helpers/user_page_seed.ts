// A tracked user for the user page's tests: five sessions spread over the last three days, each
// walking through pages (a url marker per page and one batch of events on each), so every window
// (6 h, 24 h, 7 d) holds a different, known set; plus the numbers each window must show.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { insertProject } from "./factories.ts";
import {
  insertBatch,
  insertSession,
  insertSessions,
  rebuildActivity,
} from "./sessions_factories.ts";
import { DAY, HOUR, MINUTE, seedTrackedUser, urlMarker } from "./tracked_users_factories.ts";

type Db = Kysely<Database>;

/** Each session: when it starts (ms before now), how long it lasts, the pages it goes through. */
export const ADA_SESSIONS = [
  { ago: 3 * DAY, minutes: 20, pages: ["/", "/pricing", "/docs"] },
  { ago: 20 * HOUR, minutes: 12, pages: ["/", "/pricing", "/cart"] },
  { ago: 5 * HOUR, minutes: 25, pages: ["/pricing", "/cart", "/checkout", "/docs"] },
  { ago: 2 * HOUR, minutes: 8, pages: ["/docs", "/"] },
  { ago: 40 * MINUTE, minutes: 10, pages: ["/", "/cart", "/checkout"] },
];

/** Events in the batch of the k-th page of the i-th session. */
export const eventsOn = (i: number, k: number) => 10 + 7 * i + 3 * k;

export const WINDOW_MS = { "6h": 6 * HOUR, "24h": 24 * HOUR, "7d": 7 * DAY } as const;

export async function seedUserPage(db: Db, organizationId: string, now = Date.now()) {
  const project = await insertProject(db, { organizationId, name: "Storefront" });
  const { user } = await seedTrackedUser(db, project, {
    externalId: "ada@example.test",
    traits: { name: "Ada Lovelace", plan: "pro", seats: 4, company: "Analytical Engines" },
    traitKey: "name",
    createdAt: new Date(now - 4 * DAY),
  });
  const sessions = [];
  for (const [i, s] of ADA_SESSIONS.entries()) {
    const start = now - s.ago;
    const step = (s.minutes * MINUTE) / s.pages.length;
    const session = await insertSession(db, project, {
      createdAt: new Date(start),
      durationMs: s.minutes * MINUTE,
      eventCount: s.pages.reduce((sum, _, k) => sum + eventsOn(i, k), 0),
      url: `https://shop.test${s.pages[0]}`,
      trackedUserId: user.id,
    });
    for (const [k, pathname] of s.pages.entries()) {
      const at = Math.round(start + k * step);
      await urlMarker(db, session.id, at, pathname);
      const events = Array.from(
        { length: eventsOn(i, k) },
        (_, e) => ({ timestamp: at + 1000 + e }),
      );
      await insertBatch(db, session, events);
    }
    sessions.push({ ...session, pages: s.pages, step });
  }
  return { project, user, sessions };
}

/** What a window must show: its sessions (oldest first) and their events. */
export function expectedIn(range: keyof typeof WINDOW_MS) {
  const inWindow = ADA_SESSIONS.map((s, i) => ({ ...s, i })).filter((s) =>
    s.ago <= WINDOW_MS[range]
  );
  return {
    sessions: inWindow.length,
    events: inWindow.reduce(
      (sum, s) => sum + s.pages.reduce((n, _, k) => n + eventsOn(s.i, k), 0),
      0,
    ),
    pages: new Set(inWindow.flatMap((s) => s.pages)).size,
  };
}

/** A user with `count` short sessions over the last week (two pages each), inserted in bulk. */
export async function seedBusyUser(
  db: Db,
  project: { id: string; organization_id: string },
  count: number,
  now = Date.now(),
) {
  const { user } = await seedTrackedUser(db, project, { externalId: "busy@example.test" });
  const spacing = (7 * DAY - HOUR) / count;
  const sessions = await insertSessions(
    db,
    project,
    Array.from({ length: count }, (_, i) => ({
      createdAt: new Date(now - 7 * DAY + HOUR / 2 + i * spacing),
      durationMs: 2 * MINUTE + (i % 7) * MINUTE,
      trackedUserId: user.id,
    })),
  );
  await db.insertInto("markers").values(sessions.flatMap((s, i) => {
    const start = s.started_at.getTime();
    return ["/", i % 3 ? "/pricing" : "/docs"].map((pathname, k) => ({
      session_id: s.id,
      session_created_at: s.created_at,
      ts: start + k * MINUTE,
      kind: "url",
      data: sql`${JSON.stringify({ url: `https://shop.test${pathname}`, pathname })}::text::jsonb`,
    }));
  })).execute();
  await rebuildActivity(db, sessions.map((s) => s.id));
  return { user, sessions };
}
