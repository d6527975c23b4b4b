// The sessions list's comment filters (GET /api/sessions `hasComments`, `comment`): sessions with
// a comment at all, or with one whose text contains the words, case-insensitively (0023's
// trigram index).
import { type Expression, sql, type SqlBool } from "kysely";
import { containing } from "@/db/queries/sessions/search.ts";

export interface CommentFilter {
  /** true: only sessions with a comment; false: only those without; null: either. */
  has: boolean | null;
  text: string | null;
}

export function commentConditions(f: CommentFilter): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  const any = sql<
    SqlBool
  >`EXISTS (SELECT 1 FROM session_comments c WHERE c.session_id = sessions.id)`;
  if (f.has === true) conditions.push(any);
  if (f.has === false) conditions.push(sql<SqlBool>`NOT ${any}`);
  if (f.text) {
    conditions.push(sql<SqlBool>`sessions.id IN (SELECT c.session_id FROM session_comments c
      WHERE c.text ILIKE ${containing(f.text)})`);
  }
  return conditions;
}

/** A list row's count of comments. */
export const COMMENT_COUNT = sql<number>`(SELECT count(*) FROM session_comments c
  WHERE c.session_id = sessions.id)::int`;
