// Organization invites: create-or-refresh in one statement (the partial unique index on pending
// invites makes it race-safe), the per-inviter daily send counter, listing and revocation.
import { createId } from "@paralleldrive/cuid2";
import { type Kysely, sql } from "kysely";
import type { Database, InviteStatus, Role } from "@/db/schema.ts";

export type InviteRole = Exclude<Role, "OWNER">;

export interface InviteRow {
  id: string;
  organization_id: string;
  email: string;
  role: InviteRole;
  status: InviteStatus;
  invited_by_id: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

const TODAY = sql`(now() AT TIME ZONE 'UTC')::date`;

/**
 * Counts one invite email for the inviting user unless today's `cap` is reached. The upsert is
 * one statement, so concurrent requests (on any instance) never exceed the cap.
 */
export async function claimInviteSend(
  db: Kysely<Database>,
  userId: string,
  cap: number,
): Promise<boolean> {
  const { rows } = await sql<{ count: number }>`
    INSERT INTO invite_send_counters AS c (user_id, day, count)
    VALUES (${userId}, ${TODAY}, 1)
    ON CONFLICT (user_id, day) DO UPDATE SET count = c.count + 1 WHERE c.count < ${cap}
    RETURNING count`.execute(db);
  return rows.length > 0;
}

/** Seconds until the next UTC midnight by the database's clock (when the daily cap resets). */
export async function secondsToUtcMidnight(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ seconds: number }>`
    SELECT ceil(extract(epoch FROM (${TODAY} + 1)::timestamp - (now() AT TIME ZONE 'UTC')))::int
      AS seconds`.execute(db);
  return Math.max(1, rows[0].seconds);
}

/**
 * Inserts a PENDING invite, or refreshes the pending one for the same organization and email
 * (role, inviter, expiry). `created` tells which happened.
 */
export async function upsertPendingInvite(
  db: Kysely<Database>,
  input: {
    organizationId: string;
    email: string;
    role: InviteRole;
    invitedById: string;
    ttlSeconds: number;
  },
): Promise<{ invite: InviteRow; created: boolean }> {
  const { rows } = await sql<InviteRow & { created: boolean }>`
    INSERT INTO invites AS i (id, organization_id, email, role, invited_by_id, expires_at)
    VALUES (${createId()}, ${input.organizationId}, ${input.email}, ${input.role},
      ${input.invitedById}, now() + make_interval(secs => ${input.ttlSeconds}))
    ON CONFLICT (organization_id, lower(email)) WHERE status = 'PENDING' DO UPDATE SET
      role = excluded.role, invited_by_id = excluded.invited_by_id,
      expires_at = excluded.expires_at, updated_at = now()
    RETURNING i.*, (xmax = 0) AS created`.execute(db);
  const { created, ...invite } = rows[0];
  return { invite, created };
}

/**
 * Makes an open invite of the organization PENDING again with a new expiry (and role). Throws
 * the database's unique violation when an EXPIRED one is revived beside another pending one.
 */
export async function refreshInvite(
  db: Kysely<Database>,
  input: { organizationId: string; inviteId: string; role?: InviteRole; invitedById: string },
  ttlSeconds: number,
): Promise<InviteRow | null> {
  const row = await db.updateTable("invites").set({
    status: "PENDING",
    invited_by_id: input.invitedById,
    expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})`,
    updated_at: sql<Date>`now()`,
    ...(input.role ? { role: input.role } : {}),
  }).where("id", "=", input.inviteId).where("organization_id", "=", input.organizationId)
    .where("status", "in", ["PENDING", "EXPIRED"]).returningAll().executeTakeFirst();
  return row ?? null;
}

/** True for PostgreSQL's unique_violation, on either driver. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}

/** The organization's open invites (PENDING or EXPIRED) with their inviter, newest first. */
export async function listOpenInvites(db: Kysely<Database>, organizationId: string) {
  return await db.selectFrom("invites as i")
    .leftJoin("users as u", "u.id", "i.invited_by_id")
    .selectAll("i")
    .select(["u.name as inviter_name", "u.email as inviter_email"])
    .where("i.organization_id", "=", organizationId)
    .where("i.status", "in", ["PENDING", "EXPIRED"])
    .orderBy("i.created_at", "desc").orderBy("i.id", "desc").execute();
}

export async function deleteInvite(
  db: Kysely<Database>,
  organizationId: string,
  inviteId: string,
): Promise<boolean> {
  const result = await db.deleteFrom("invites").where("id", "=", inviteId)
    .where("organization_id", "=", organizationId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** True when a user with this email already belongs to the organization. */
export async function isMemberByEmail(
  db: Kysely<Database>,
  organizationId: string,
  email: string,
): Promise<boolean> {
  const row = await db.selectFrom("memberships as m").innerJoin("users as u", "u.id", "m.user_id")
    .select("m.id").where("m.organization_id", "=", organizationId)
    .where(sql`lower(u.email)`, "=", email.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/** The organization's name and the inviter's display name, for the invite email. */
export async function inviteEmailContext(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
) {
  const [org, user] = await Promise.all([
    db.selectFrom("organizations").select("name").where("id", "=", organizationId)
      .executeTakeFirst(),
    db.selectFrom("users").select(["name", "email"]).where("id", "=", userId).executeTakeFirst(),
  ]);
  return { organizationName: org?.name ?? "an organization", inviterName: user?.name ?? null };
}
