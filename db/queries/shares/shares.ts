// Public links to sessions: written with their token's hash, listed per session, revoked, and
// found by hash with what the shared page needs to decide whether the link still opens.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface NewShareRow {
  id: string;
  organization_id: string;
  session_id: string;
  token_hash: string;
  created_by_id: string;
  start_ms: number | null;
  end_ms: number | null;
  show_console: boolean;
  expires_at: Date;
}

export async function insertShare(db: Kysely<Database>, row: NewShareRow) {
  await db.insertInto("session_shares").values(row).execute();
}

const LISTED = [
  "session_shares.id",
  "session_shares.session_id",
  "session_shares.start_ms",
  "session_shares.end_ms",
  "session_shares.show_console",
  "session_shares.expires_at",
  "session_shares.revoked_at",
  "session_shares.views",
  "session_shares.last_viewed_at",
  "session_shares.created_at",
] as const;

/** A session's links, newest first, with their creator's name (or email). */
export async function sharesOfSession(db: Kysely<Database>, organizationId: string, id: string) {
  return await listed(db).where("session_shares.organization_id", "=", organizationId)
    .where("session_shares.session_id", "=", id)
    .orderBy("session_shares.created_at", "desc").orderBy("session_shares.id")
    .execute();
}

export async function shareById(db: Kysely<Database>, organizationId: string, id: string) {
  return await listed(db).where("session_shares.organization_id", "=", organizationId)
    .where("session_shares.id", "=", id).executeTakeFirst() ?? null;
}

function listed(db: Kysely<Database>) {
  return db.selectFrom("session_shares")
    .leftJoin("users", "users.id", "session_shares.created_by_id")
    .select(LISTED)
    .select(sql<string | null>`COALESCE(users.name, users.email)`.as("created_by"));
}

export type ShareRow = NonNullable<Awaited<ReturnType<typeof shareById>>>;

/** Marks the link revoked (once: the first revocation's time stays); false when there is none. */
export async function revokeShare(db: Kysely<Database>, organizationId: string, id: string) {
  const result = await db.updateTable("session_shares")
    .set({ revoked_at: sql`COALESCE(revoked_at, now())` })
    .where("organization_id", "=", organizationId).where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The link with this token hash while it opens: not revoked, not expired, its organization still
 * allowing links (its session exists: a deleted one took the link with it). Null otherwise.
 */
export async function openShare(db: Kysely<Database>, tokenHash: string, now: Date) {
  return await db.selectFrom("session_shares")
    .innerJoin("organizations", "organizations.id", "session_shares.organization_id")
    .select([
      "session_shares.id",
      "session_shares.organization_id",
      "session_shares.session_id",
      "session_shares.start_ms",
      "session_shares.end_ms",
      "session_shares.show_console",
    ])
    .where("session_shares.token_hash", "=", tokenHash)
    .where("session_shares.revoked_at", "is", null)
    .where("session_shares.expires_at", ">", now)
    .where("organizations.allow_public_links", "=", true)
    .executeTakeFirst() ?? null;
}

export type OpenShareRow = NonNullable<Awaited<ReturnType<typeof openShare>>>;

/** Counts one view of the page. */
export async function countView(db: Kysely<Database>, id: string, now: Date) {
  await db.updateTable("session_shares")
    .set({ views: sql`views + 1`, last_viewed_at: now })
    .where("id", "=", id).execute();
}

export async function publicLinksAllowed(db: Kysely<Database>, organizationId: string) {
  const row = await db.selectFrom("organizations").select("allow_public_links")
    .where("id", "=", organizationId).executeTakeFirst();
  return row?.allow_public_links ?? false;
}
