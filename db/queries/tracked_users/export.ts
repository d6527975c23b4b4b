// What a tracked user's export reads (docs/decisions.md "Erasure"): their sessions a page at a
// time (keyset on id), and those sessions' markers and comments.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

export async function exportSessionsPage(
  db: Db,
  organizationId: string,
  trackedUserId: string,
  afterId: string | null,
  limit: number,
) {
  let q = db.selectFrom("sessions").select([
    "id",
    "external_id",
    "project_id",
    "started_at",
    "ended_at",
    "duration",
    "url",
    "referrer",
    "user_agent",
    "browser",
    "os",
    "device",
    "screen_width",
    "screen_height",
    "language",
    "event_count",
    "error_count",
    "rage_click_count",
    "dead_click_count",
    "recording_reason",
    "created_at",
  ]).where("organization_id", "=", organizationId).where("tracked_user_id", "=", trackedUserId);
  if (afterId !== null) q = q.where("id", ">", afterId);
  return await q.orderBy("id").limit(limit).execute();
}

export async function exportMarkers(db: Db, sessionIds: string[]) {
  if (!sessionIds.length) return [];
  return await db.selectFrom("markers").select(["session_id", "ts", "kind", "data"])
    .where("session_id", "in", sessionIds).orderBy("session_id").orderBy("ts").orderBy("id")
    .execute();
}

export async function exportComments(db: Db, sessionIds: string[]) {
  if (!sessionIds.length) return [];
  return await db.selectFrom("session_comments")
    .select(["session_id", "offset_ms", "text", "created_at"])
    .where("session_id", "in", sessionIds).orderBy("session_id").orderBy("offset_ms")
    .orderBy("id").execute();
}
