// A statement refused because a value passed one of PostgreSQL's own limits (SQLSTATE 54000,
// program_limit_exceeded), above all a row too large for its index (a B-tree row holds ~2.7 KB).
// The two drivers name the table and the index under different keys.

export interface ProgramLimit {
  /** The table the row was bound for, when the server names it (a partition by its own name). */
  table: string | null;
  /** The index the row was too large for, when the server names it. */
  index: string | null;
}

type DriverError = {
  code?: unknown;
  table_name?: unknown; // postgres.js
  constraint_name?: unknown;
  table?: unknown; // PGlite
  constraint?: unknown;
} | null;

/** What a value was too large for, or null for any other error. */
export function programLimitExceeded(error: unknown): ProgramLimit | null {
  const e = error as DriverError;
  if (e?.code !== "54000") return null;
  const name = (value: unknown) => typeof value === "string" && value ? value : null;
  return { table: name(e.table_name ?? e.table), index: name(e.constraint_name ?? e.constraint) };
}
