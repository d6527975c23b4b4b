// A seeded organization for tests/service/openapi_test.ts: an OWNER with a project, a session recorded
// through ingest (batches, url and identity markers, a tracked user), a member, invites both ways,
// a passkey and a linked account, so every documented list answers with items to check.
import { jsonValue } from "@/db/queries/alerts/rules.ts";
import { deriveHeatmaps } from "@/core/heatmaps/derive.ts";
import assert from "node:assert/strict";
import { createId } from "@paralleldrive/cuid2";
import type { TestApp } from "./app.ts";
import { signedInUser } from "./auth.ts";
import { insertMembership, insertOrganization, insertProject, insertUser } from "./factories.ts";
import { customEvent, METADATA, postIngest, recordedEvents } from "./ingest.ts";

export const CRON_SECRET = "openapi-test-cron-secret";

export async function openApiWorld(t: TestApp) {
  const db = t.db.kysely;
  const me = await signedInUser(t, { role: "OWNER" });
  const project = await insertProject(db, {
    organizationId: me.organizationId,
    name: "Alpha",
    network: true,
  });

  // Recent, so the tracked user's 24 h timeline and activity have periods and buckets.
  const start = Date.now() - 10 * 60_000;
  const sessionExternalId = crypto.randomUUID();
  const batches = [
    recordedEvents(4, start),
    [customEvent("service:url", { url: "https://shop.test/cart", pathname: "/cart" }, start + 9e3)],
    // a recorded request that failed (the Network tab's list, a network_error marker)
    [{
      type: 6,
      timestamp: start + 9500,
      data: {
        plugin: "rrweb/network@1",
        payload: {
          requests: [{
            name: "https://shop.test/api/cart/7",
            method: "POST",
            initiatorType: "fetch",
            status: 503,
            startTime: 9400,
            endTime: 9480,
            timestamp: start + 9400,
            responseHeaders: { "content-type": "application/json" },
            responseBody: '{"error":"busy"}',
          }],
        },
      },
    }],
  ];
  for (const [i, events] of batches.entries()) {
    const metadata = i === 0
      ? { ...METADATA, userIdentity: { userId: "u-7", traits: { name: "Grace", plan: "pro" } } }
      : undefined;
    const res = await postIngest(t.app, { sessionId: sessionExternalId, events, metadata }, {
      key: project.key,
    });
    assert.equal(res.status, 204, await res.text());
  }
  const session = await db.selectFrom("sessions").selectAll()
    .where("external_id", "=", sessionExternalId).executeTakeFirstOrThrow();
  // Its share of the heatmaps, derived as the background step does (a minute after its batch).
  await deriveHeatmaps(t.deps, new Date(Date.now() + 3_600_000));
  assert.ok(session.tracked_user_id, "ingest identified the tracked user");

  const colleague = await insertUser(db);
  const member = await insertMembership(db, me.organizationId, colleague.id, "VIEWER");
  const invite = await insertInviteRow(
    t,
    me.organizationId,
    `${createId()}@example.test`,
    me.user.id,
  );
  const elsewhere = await insertOrganization(db, "Elsewhere");
  const inviteToMe = await insertInviteRow(t, elsewhere.id, me.user.email, null);

  const credentialId = "b3BlbmFwaS10ZXN0LWNyZWRlbnRpYWw";
  await db.insertInto("authenticators").values({
    credential_id: credentialId,
    user_id: me.user.id,
    public_key: new Uint8Array(77),
    credential_device_type: "singleDevice",
    name: "Laptop",
  }).execute();
  await db.insertInto("accounts").values({
    id: createId(),
    user_id: me.user.id,
    provider: "github",
    provider_account_id: "4242",
    email: me.user.email,
  }).execute();

  const savedSearch = createId();
  await db.insertInto("saved_searches").values({
    id: savedSearch,
    organization_id: me.organizationId,
    name: "Errors",
    query: "signals=error",
    author_id: me.user.id,
  }).execute();

  // A reserved address (TEST-NET-1): a test delivery is refused at send, never leaves the host.
  const alertRule = createId();
  await db.insertInto("alert_rules").values({
    id: alertRule,
    organization_id: me.organizationId,
    project_id: project.id,
    name: "Errors",
    signal: "error",
    group_by: null,
    saved_search_id: null,
    threshold: 5,
    window_minutes: 10,
    cooldown_minutes: 60,
    deliver: jsonValue(JSON.stringify({ webhook: "https://192.0.2.1/hook" })), // a JSON object on both drivers
    secret_sealed: null,
    created_by_id: me.user.id,
  }).execute();

  /** A value for every path parameter of the documented routes. */
  const params = (path: string): Record<string, string> => ({
    id: path.startsWith("/api/sessions")
      ? session.id
      : path.startsWith("/api/tracked-users")
      ? session.tracked_user_id!
      : path.startsWith("/api/saved-searches")
      ? savedSearch
      : path.startsWith("/api/alert-rules")
      ? alertRule
      : project.id,
    orgId: me.organizationId,
    memberId: member.id,
    inviteId: path.startsWith("/api/user") ? inviteToMe.id : invite.id,
    credentialId,
    provider: "github",
    file: `${me.user.avatar_seed}.svg`,
    index: "0",
  });
  /** The query a documented route needs to answer (its required parameters), or "". */
  const query = (path: string): string =>
    path === "/api/tracked-users/heartbeat"
      ? `?ids=${session.tracked_user_id}`
      : path === "/api/sessions/{id}/export"
      ? "?format=html"
      : path === "/api/heatmaps"
      ? `?projectId=${project.id}&path=/`
      : path === "/api/heatmaps/pages"
      ? `?projectId=${project.id}`
      : "";
  return { me, project, session, member, params, query };
}

async function insertInviteRow(
  t: TestApp,
  organizationId: string,
  email: string,
  invitedById: string | null,
) {
  return await t.db.kysely.insertInto("invites").values({
    id: createId(),
    organization_id: organizationId,
    email,
    role: "VIEWER",
    invited_by_id: invitedById,
    expires_at: new Date(Date.now() + 86_400_000),
  }).returningAll().executeTakeFirstOrThrow();
}
