// Row types of what members write for each other: comments on a moment of a session (migration
// 0023) and saved searches with when each member last opened one (0037), part of `Database` in
// db/schema.ts.
import type { ColumnType } from "kysely";

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface SessionCommentTable {
  id: string;
  organization_id: string;
  session_id: string;
  author_id: string | null;
  offset_ms: number;
  text: string;
  created_at: CreatedAt;
}

export interface SavedSearchTable {
  id: string;
  organization_id: string;
  name: string;
  /** The /sessions URL query, normalized (core/saved_searches/query.ts). */
  query: string;
  author_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SavedSearchOpenTable {
  saved_search_id: string;
  user_id: string;
  opened_at: ColumnType<Date, Date | string, Date | string>;
}

export interface CollaborationTables {
  session_comments: SessionCommentTable;
  saved_searches: SavedSearchTable;
  saved_search_opens: SavedSearchOpenTable;
}
