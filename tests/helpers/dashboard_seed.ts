// A lived-in organization for dashboard page and browser tests: two projects, sessions across
// ranges (today, this week, this month), identified and anonymous, and one tracked user ("Ada")
// with sessions over several pages (url markers and batches) in the last day.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { insertProject } from "./factories.ts";
import { insertSession } from "./sessions_factories.ts";
import {
  batchAt,
  DAY,
  HOUR,
  MINUTE,
  seedTrackedUser,
  urlMarker,
} from "./tracked_users_factories.ts";

type Db = Kysely<Database>;

const ADA_PAGES = ["/", "/pricing", "/cart", "/checkout", "/docs"];

export async function seedDashboard(db: Db, organizationId: string, now = Date.now()) {
  const shop = await insertProject(db, { organizationId, name: "Storefront" });
  const docs = await insertProject(db, { organizationId, name: "Docs site" });

  const ada = await seedTrackedUser(db, shop, {
    externalId: "ada@example.test",
    traits: { name: "Ada Lovelace", plan: "pro", seats: 4 },
    traitKey: "name",
    createdAt: new Date(now - 3 * DAY),
    sessions: [
      { start: now - 20 * HOUR, durationMs: 12 * MINUTE, eventCount: 120 },
      { start: now - 5 * HOUR, durationMs: 25 * MINUTE, eventCount: 340 },
      { start: now - 40 * MINUTE, durationMs: 8 * MINUTE, eventCount: 90 },
    ],
  });
  // Each of Ada's sessions walks through pages, with a batch of events on each.
  for (const [i, s] of ada.sessions.entries()) {
    const start = s.started_at.getTime();
    const step = (s.ended_at!.getTime() - start) / 4;
    for (let k = 0; k < 4; k++) {
      const at = Math.round(start + k * step);
      await urlMarker(db, s.id, at, ADA_PAGES[(i + k) % ADA_PAGES.length]);
      await batchAt(db, s, at + 1000, 10 + 5 * k);
    }
  }

  const grace = await seedTrackedUser(db, docs, {
    externalId: "grace-42",
    traits: { company: "Navy" },
    createdAt: new Date(now - 10 * DAY),
    sessions: [{ start: now - 6 * DAY, durationMs: 3 * MINUTE }],
  });

  const anonymous = [];
  const ages = [2 * HOUR, 2 * DAY, 12 * DAY, 25 * DAY];
  for (const [i, age] of ages.entries()) {
    anonymous.push(
      await insertSession(db, i % 2 ? docs : shop, {
        createdAt: new Date(now - age),
        durationMs: (i + 1) * 90_000,
        url: `https://${i % 2 ? "docs" : "shop"}.test/landing-${i}`,
      }),
    );
  }
  return { shop, docs, ada, grace, anonymous };
}
