// A recorded session to share: 100 s of a shop page (a Meta and full snapshot at 0 and at 30 s,
// a mouse move every second, console calls, and the tracked user identified with name, email and
// traits), posted through ingest, plus a second session whose id must never show through a link.
import assert from "node:assert/strict";
import { EventType, IncrementalSource } from "@rrweb/types";
import type { Role } from "@/db/schema.ts";
import type { TestApp } from "./app.ts";
import { APP_ORIGIN, call, signedInUser } from "./auth.ts";
import { insertMembership, insertProject, insertUser } from "./factories.ts";
import { cookieFor } from "./auth.ts";
import { METADATA, postIngest, type TestEvent } from "./ingest.ts";
import { recent } from "@/tests/helpers/times.ts";
import { CONSOLE_PLUGIN, IDENTITY_TAG } from "@/recording/events.ts";
import { elementNode, metaEvent, pageSnapshot, textNode } from "./recording_fixture.ts";

export const T0 = recent(1_760_000_000_000);
export const PERSON = {
  userId: "cust-8841",
  name: "Ada Quartermaine",
  email: "ada.quartermaine@example.test",
  plan: "platinum-tier-7",
};

const meta = (t: number): TestEvent => metaEvent(T0 + t, "https://shop.test/cart", 1280, 800);
/** A masked name, already asterisks (a real page's text masked by the SDK and exported:
 * tests/e2e/export_masking_test.ts). */
const MASKED_NAME = "*".repeat("Ada Quartermaine".length);
const option = (id: number, value: string, text: string) =>
  elementNode(id, "option", { value }, [textNode(id + 1, text)]);
const snapshot = (t: number, label: string): TestEvent =>
  pageSnapshot(T0 + t, [
    elementNode(5, "h1", {}, [textNode(4, label)]),
    // A recorded image from the site: an export must not fetch it.
    elementNode(6, "img", { src: "https://cdn.shop.test/logo.png" }),
    // Masked at capture (the visitor's name; a select whose chosen country is masked):
    // the replay, a link and an export show the mask, never a real option as chosen.
    elementNode(7, "p", { "data-service-mask": "" }, [textNode(8, MASKED_NAME)]),
    elementNode(9, "select", { value: "*****" }, [
      option(10, "no", "Norway"),
      option(12, "de", "Germany"),
    ]),
  ]);
const move = (t: number): TestEvent => ({
  type: EventType.IncrementalSnapshot,
  data: {
    source: IncrementalSource.MouseMove,
    positions: [{ x: t / 1000, y: 10, id: 3, timeOffset: 0 }],
  },
  timestamp: T0 + t,
});
/** The heading's text becomes `At <s> s` (a text mutation of node 4). */
const heading = (t: number): TestEvent => ({
  type: EventType.IncrementalSnapshot,
  data: {
    source: IncrementalSource.Mutation,
    texts: [{ id: 4, value: `At ${t / 1000} s` }],
    attributes: [],
    removes: [],
    adds: [],
  },
  timestamp: T0 + t,
});
const log = (t: number, text: string): TestEvent => ({
  type: EventType.Plugin,
  data: { plugin: CONSOLE_PLUGIN, payload: { level: "log", payload: [JSON.stringify(text)] } },
  timestamp: T0 + t,
});
const identify = (t: number): TestEvent => ({
  type: EventType.Custom,
  data: {
    tag: IDENTITY_TAG,
    payload: {
      userId: PERSON.userId,
      traits: { name: PERSON.name, email: PERSON.email, plan: PERSON.plan },
    },
  },
  timestamp: T0 + t,
});

/**
 * Five batches of 20 s: snapshots at 0 and 30 s, a move each second to 100 s, the heading saying
 * `At <s> s` from each tenth second, logs at 35 and 55 s.
 */
export function shopEvents(): TestEvent[][] {
  const batches: TestEvent[][] = [];
  for (let b = 0; b < 5; b++) {
    const events: TestEvent[] = [];
    for (let s = b * 20; s < (b + 1) * 20; s++) {
      if (s === 0) events.push(meta(0), snapshot(1, "Cart page"), identify(2));
      if (s === 30) events.push(meta(30_000), snapshot(30_001, "Cart page again"));
      if (s === 35 || s === 55) events.push(log(s * 1000 + 500, `log at ${s}`));
      if (s % 10 === 0 && s > 0) events.push(heading(s * 1000));
      events.push(move(s * 1000 + 100));
    }
    batches.push(events);
  }
  batches[4].push(heading(100_000), move(100_000));
  return batches;
}

/** `origin`: the app's own (its APP_URL), so mutations pass the same-origin check. */
export async function sharesWorld(t: TestApp, origin = APP_ORIGIN) {
  const db = t.db.kysely;
  const owner = await signedInUser(t, { role: "OWNER" });
  const member = async (role: Role) => {
    const user = await insertUser(db);
    await insertMembership(db, owner.organizationId, user.id, role);
    await db.updateTable("users").set({ active_organization_id: owner.organizationId })
      .where("id", "=", user.id).execute();
    return { user, cookie: await cookieFor(t, user.id) };
  };
  const project = await insertProject(db, {
    organizationId: owner.organizationId,
    name: "Secret Project Name",
    network: true, // recordings hold requests, which shares and exports leave out
  });
  await db.updateTable("organizations").set({ name: "Hidden Org Name" })
    .where("id", "=", owner.organizationId).execute();
  const record = async (batches: TestEvent[][]) => {
    const externalId = crypto.randomUUID();
    for (const [i, events] of batches.entries()) {
      const metadata = i === 0
        ? {
          ...METADATA,
          userIdentity: {
            userId: PERSON.userId,
            traits: { name: PERSON.name, email: PERSON.email, plan: PERSON.plan },
          },
        }
        : undefined;
      const res = await postIngest(t.app, { sessionId: externalId, events, metadata }, {
        key: project.key,
      });
      assert.equal(res.status, 204);
    }
    return (await db.selectFrom("sessions").select("id")
      .where("external_id", "=", externalId).executeTakeFirstOrThrow()).id;
  };
  const sessionId = await record(shopEvents());
  const otherSessionId = await record([shopEvents()[0]]);
  const api = (method: string, path: string, cookie = owner.cookie, body?: unknown) =>
    call(t.app, method, path, { cookie, body, headers: { Origin: origin } });
  /** A link to `session` (the shop's, unless another recorded one is named). */
  const share = async (
    body: Record<string, unknown> = {},
    cookie = owner.cookie,
    session = sessionId,
  ) => {
    const res = await api("POST", `/api/sessions/${session}/shares`, cookie, body);
    return { res, body: await res.json() };
  };
  return { db, owner, member, project, sessionId, otherSessionId, api, share, record };
}

/** The path of a link's URL. */
export const pathOf = (url: string) => new URL(url).pathname;
