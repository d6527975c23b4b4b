// A seeded world for tests/permission_matrix_test.ts: organization 1 with an OWNER, an ADMIN, a
// VIEWER and two spare members, its projects, sessions, tracked users and invites (a spare of each
// for destructive calls); organization 2, whose OWNER is the "other" caller, with its own
// project, session and tracked user (the `other…` ids); and the personal
// resources (passkeys, linked accounts, invites addressed to them) of whoever calls.
import { jsonValue } from "@/db/queries/alerts/rules.ts";
import { createId } from "@paralleldrive/cuid2";
import type { Kysely } from "kysely";
import type { Database, Role } from "@/db/schema.ts";
import type { TestApp } from "./app.ts";
import { signedInUser } from "./auth.ts";
import { insertMembership, insertOrganization, insertProject, insertUser } from "./factories.ts";
import { insertMarker, insertSession } from "./sessions_factories.ts";
import { batchAt, MINUTE, seedTrackedUser } from "./tracked_users_factories.ts";

export type Caller = "OWNER" | "ADMIN" | "VIEWER" | "OTHER" | "ANON";
export const CALLERS: Caller[] = ["OWNER", "ADMIN", "VIEWER", "OTHER", "ANON"];

export interface World {
  /** Values for the `{token}`s of the matrix's paths and bodies. */
  ids: Record<string, string>;
  /** The caller's Cookie header; undefined for ANON. */
  cookie?: string;
}

type Db = Kysely<Database>;

/** Seeds a fresh world and returns it as `caller` sees it. */
export async function seedWorld(t: TestApp, caller: Caller): Promise<World> {
  const db = t.db.kysely;
  const org = await insertOrganization(db, "Org One");
  const members: Partial<Record<Role, Awaited<ReturnType<typeof signedInUser>>>> = {};
  for (const role of ["OWNER", "ADMIN", "VIEWER"] as const) {
    members[role] = await signedInUser(t, { role, organizationId: org.id });
  }
  const spare = await spareMember(db, org.id);
  const gone = await spareMember(db, org.id);
  const other = await signedInUser(t); // OWNER of organization 2, which is active
  const otherProject = await insertProject(db, { organizationId: other.organizationId });
  const elsewhere = await seedRecordings(db, otherProject);

  const project = await insertProject(db, { organizationId: org.id, name: "Main" });
  const projectDoomed = await insertProject(db, { organizationId: org.id, name: "Doomed" });
  const { trackedUser, session } = await seedRecordings(db, project);
  const { trackedUser: trackedUserDoomed } = await seedRecordings(db, project);
  const sessionDoomed = await insertSession(db, project);
  const { share, comment, savedSearch, alertRule } = await seedShareAndComment(
    db,
    org.id,
    session.id,
    members.OWNER!.user.id,
  );

  const me = caller === "OTHER" ? other : members[caller === "ANON" ? "OWNER" : caller]!;
  const memberSelf = caller === "OTHER" || caller === "ANON"
    ? gone.id
    : await membershipId(db, org.id, me.user.id);
  // One pending invite per email and organization: two inviting organizations.
  const inviting = [await insertOrganization(db, "Inviting"), await insertOrganization(db, "Also")];
  return {
    cookie: caller === "ANON" ? undefined : me.cookie,
    ids: {
      org: org.id,
      project: project.id,
      projectDoomed: projectDoomed.id,
      session: session.id,
      sessionDoomed: sessionDoomed.id,
      share,
      comment,
      savedSearch,
      alertRule,
      // The index of a recorded request (the world records none: tests/sessions/network_test.ts).
      request: "0",
      trackedUser: trackedUser.id,
      trackedUserDoomed: trackedUserDoomed.id,
      memberSpare: spare.id,
      memberGone: gone.id,
      memberSelf,
      inviteRefresh: (await insertInvite(db, org.id, `${createId()}@example.test`)).id,
      inviteRevoke: (await insertInvite(db, org.id, `${createId()}@example.test`)).id,
      newEmail: `${createId()}@example.test`,
      newEmail2: `${createId()}@example.test`,
      myInviteAccept: (await insertInvite(db, inviting[0].id, me.user.email)).id,
      myInviteDecline: (await insertInvite(db, inviting[1].id, me.user.email)).id,
      myPasskey: await insertPasskey(db, me.user.id),
      myPasskeyGone: await insertPasskey(db, me.user.id),
      provider: await linkAccounts(db, me.user.id),
      avatarSeed: me.user.avatar_seed,
      otherOrg: other.organizationId,
      otherProject: otherProject.id,
      otherSession: elsewhere.session.id,
      otherTrackedUser: elsewhere.trackedUser.id,
    },
  };
}

/** A tracked user with one recent session, a url marker and a stored batch. */
async function seedRecordings(db: Db, project: { id: string; organization_id: string }) {
  const start = Date.now() - 10 * MINUTE;
  const { user, sessions } = await seedTrackedUser(db, project, { sessions: [{ start }] });
  const session = sessions[0];
  await insertMarker(db, session.id, {
    ts: start,
    kind: "url",
    data: { url: "https://shop.test/", pathname: "/" },
  });
  await batchAt(db, session, start, 3);
  // Its share of the heatmaps (migration 0040): a view of "/" in the wide band.
  await db.insertInto("heatmap_views").values({
    session_id: session.id,
    project_id: project.id,
    path: "/",
    band: "wide",
    day: new Date(start).toISOString().slice(0, 10),
    views: 1,
    depth_px: 800,
    fold_px: 800,
  }).execute();
  return { trackedUser: user, session };
}

async function spareMember(db: Db, organizationId: string) {
  return await insertMembership(db, organizationId, (await insertUser(db)).id, "VIEWER");
}

async function membershipId(db: Db, organizationId: string, userId: string) {
  return (await db.selectFrom("memberships").select("id")
    .where("organization_id", "=", organizationId).where("user_id", "=", userId)
    .executeTakeFirstOrThrow()).id;
}

async function insertInvite(db: Db, organizationId: string, email: string) {
  return await db.insertInto("invites").values({
    id: createId(),
    organization_id: organizationId,
    email,
    role: "VIEWER",
    expires_at: new Date(Date.now() + 86_400_000),
  }).returningAll().executeTakeFirstOrThrow();
}

async function insertPasskey(db: Db, userId: string): Promise<string> {
  const credentialId = createId();
  await db.insertInto("authenticators").values({
    credential_id: credentialId,
    user_id: userId,
    public_key: new Uint8Array(77),
    credential_device_type: "singleDevice",
    name: "Laptop",
  }).execute();
  return credentialId;
}

/** Links github and google, so unlinking github leaves a way to sign in; returns "github". */
async function linkAccounts(db: Db, userId: string): Promise<string> {
  for (const provider of ["github", "google"]) {
    await db.insertInto("accounts").values({
      id: createId(),
      user_id: userId,
      provider,
      provider_account_id: createId(),
      email: null,
    }).execute();
  }
  return "github";
}

/**
 * A public link to the session, a comment on it, a saved search and an alert rule, all by the OWNER
 * (migrations 0022, 0023, 0037, 0038).
 */
async function seedShareAndComment(db: Db, orgId: string, sessionId: string, ownerId: string) {
  const share = createId();
  await db.insertInto("session_shares").values({
    id: share,
    organization_id: orgId,
    session_id: sessionId,
    token_hash: createId(),
    created_by_id: ownerId,
    show_console: false,
    expires_at: new Date(Date.now() + 3_600_000),
  }).execute();
  const comment = createId();
  await db.insertInto("session_comments").values({
    id: comment,
    organization_id: orgId,
    session_id: sessionId,
    author_id: ownerId,
    offset_ms: 0,
    text: "A comment",
  }).execute();
  const savedSearch = createId();
  await db.insertInto("saved_searches").values({
    id: savedSearch,
    organization_id: orgId,
    name: "Errors",
    query: "signals=error",
    author_id: ownerId,
  }).execute();
  const alertRule = createId();
  await db.insertInto("alert_rules").values({
    id: alertRule,
    organization_id: orgId,
    project_id: (await db.selectFrom("sessions").select("project_id").where("id", "=", sessionId)
      .executeTakeFirstOrThrow()).project_id,
    name: "Errors",
    signal: "error",
    group_by: null,
    saved_search_id: null,
    threshold: 5,
    window_minutes: 10,
    cooldown_minutes: 60,
    // A reserved address (TEST-NET-1): a test delivery is refused at send, never leaves the host.
    deliver: jsonValue(JSON.stringify({ webhook: "https://192.0.2.1/hook" })), // a JSON object on both drivers
    secret_sealed: null,
    created_by_id: ownerId,
  }).execute();
  return { share, comment, savedSearch, alertRule };
}
