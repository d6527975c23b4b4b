// The alert rollup tests' world: two projects' sessions over the last three hours with url
// markers on several pages, then every signal kind on several elements, errors and endpoints,
// some sessions with signals in several minutes and groups (deterministic, seeded).
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSessions, rebuildActivity } from "@/tests/helpers/sessions_factories.ts";

const MIN = 60_000;
const PAGES = ["/", "/cart", "/checkout", "/account"];
const KINDS = ["rage_click", "dead_click", "error", "network_error"];

/** A small linear congruential generator: the same world every run. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
}

function signalData(kind: string, pick: (n: number) => number) {
  const n = pick(3);
  if (kind === "error") {
    return {
      message: `TypeError: order ${pick(90) + 10} failed ${n}`,
      stack: `at pay (app.js:${n})`,
    };
  }
  if (kind === "network_error") return { endpoint: `GET /api/orders/:id/${n}`, status: 500 };
  return { selector: `button.pay-${n}`, text: "Pay" };
}

export async function signalWorld(db: Kysely<Database>, sessionsPerProject = 40) {
  const project = await insertProject(db);
  const other = await insertProject(db, { organizationId: project.organization_id });
  const now = Math.floor(Date.now() / MIN) * MIN + 17_000;
  const pick = random(44);
  const markers: { session_id: string; created: Date; ts: number; kind: string; data: unknown }[] =
    [];
  const signals: typeof markers = [];
  for (const p of [project, other]) {
    const seeds = Array.from({ length: sessionsPerProject }, () => {
      const startedAt = now - pick(120) * MIN - pick(MIN);
      return { createdAt: new Date(startedAt), url: `https://shop.test${PAGES[pick(4)]}` };
    });
    for (const session of await insertSessions(db, p, seeds)) {
      const start = session.started_at.getTime();
      for (let u = 0; u < 1 + pick(3); u++) {
        markers.push({
          session_id: session.id,
          created: session.created_at,
          ts: start + u * pick(10) * MIN,
          kind: "url",
          data: { pathname: PAGES[pick(4)] },
        });
      }
      for (let k = 0; k < 1 + pick(5); k++) {
        const kind = KINDS[pick(4)];
        signals.push({
          session_id: session.id,
          created: session.created_at,
          // within the session's first 20 minutes, some in the same minute as another
          ts: start + pick(20) * MIN + pick(3) * 1_000,
          kind,
          data: signalData(kind, pick),
        });
      }
    }
  }
  const insert = async (rows: typeof markers) =>
    await db.insertInto("markers").values(rows.map((m) => ({
      session_id: m.session_id,
      session_created_at: m.created,
      ts: m.ts,
      kind: m.kind,
      data: sql`${JSON.stringify(m.data)}::text::jsonb`,
    }))).execute();
  // The pages first (the sessions' url summary), then the signals in one statement.
  await insert(markers);
  await rebuildActivity(db, [...new Set(markers.map((m) => m.session_id))]);
  await insert(signals);
  return { project, other, now };
}
