// Comments on a moment of a session: written, listed in time order with their authors, found and
// deleted by id within one organization.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface NewCommentRow {
  id: string;
  organization_id: string;
  session_id: string;
  author_id: string;
  offset_ms: number;
  text: string;
}

export async function insertComment(db: Kysely<Database>, row: NewCommentRow) {
  await db.insertInto("session_comments").values(row).execute();
}

function listed(db: Kysely<Database>) {
  return db.selectFrom("session_comments")
    .leftJoin("users", "users.id", "session_comments.author_id")
    .select([
      "session_comments.id",
      "session_comments.session_id",
      "session_comments.author_id",
      "session_comments.offset_ms",
      "session_comments.text",
      "session_comments.created_at",
      sql<string | null>`COALESCE(users.name, users.email)`.as("author_name"),
    ]);
}

export async function commentsOfSession(db: Kysely<Database>, organizationId: string, id: string) {
  return await listed(db).where("session_comments.organization_id", "=", organizationId)
    .where("session_comments.session_id", "=", id)
    .orderBy("session_comments.offset_ms").orderBy("session_comments.created_at")
    .orderBy("session_comments.id").execute();
}

export async function commentById(db: Kysely<Database>, organizationId: string, id: string) {
  return await listed(db).where("session_comments.organization_id", "=", organizationId)
    .where("session_comments.id", "=", id).executeTakeFirst() ?? null;
}

export type CommentRow = NonNullable<Awaited<ReturnType<typeof commentById>>>;

export async function deleteComment(db: Kysely<Database>, organizationId: string, id: string) {
  const result = await db.deleteFrom("session_comments")
    .where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
