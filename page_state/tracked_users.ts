// The users page's state in its URL query, with the API's names and values (docs/decisions.md
// "Tracked users"): search, statuses, sort, sortDir and cursor. The filter form sends statuses as
// repeated `statuses`; the API takes them comma-separated, and both are read here.
import { trackedUserListQuery } from "../core/tracked_users/schema.ts";
import type { TrackedUserListInput } from "../core/tracked_users/schema.ts";
import type { TrackedUserStatus } from "../core/tracked_users/status.ts";
import { parseWith } from "../core/validate.ts";

export const PAGE_SIZE = 25;

export interface UsersQuery {
  search: string;
  /** Empty: every status. */
  statuses: TrackedUserStatus[];
  sort: TrackedUserListInput["sort"];
  sortDir: TrackedUserListInput["sortDir"];
  cursor?: string;
}

/** The query of a /users URL; unknown values throw a validation error (400). */
export function readUsersQuery(url: URL): UsersQuery {
  const raw = Object.fromEntries(url.searchParams);
  const statuses = url.searchParams.getAll("statuses").join(",");
  const parsed = parseWith(
    trackedUserListQuery,
    { ...raw, statuses, projectIds: undefined, limit: undefined },
    "query",
  );
  return {
    search: parsed.search?.trim() ?? "",
    statuses: parsed.statuses ?? [],
    sort: parsed.sort,
    sortDir: parsed.sortDir,
    cursor: parsed.cursor,
  };
}

/** The core/ input of the query. */
export function listInput(q: UsersQuery): TrackedUserListInput {
  return {
    search: q.search || undefined,
    statuses: q.statuses.length ? q.statuses : undefined,
    sort: q.sort,
    sortDir: q.sortDir,
    cursor: q.cursor,
    limit: PAGE_SIZE,
  };
}

/** Whether any filter narrows the list (the empty state differs). */
export function isFiltered(q: UsersQuery): boolean {
  return q.search !== "" || q.statuses.length > 0;
}

function params(q: UsersQuery, statuses: (list: string[]) => [string, string][]) {
  const out: [string, string][] = [];
  if (q.search) out.push(["search", q.search]);
  out.push(...statuses(q.statuses));
  if (q.sort !== "last-seen") out.push(["sort", q.sort]);
  if (q.sortDir !== "desc") out.push(["sortDir", q.sortDir]);
  if (q.cursor) out.push(["cursor", q.cursor]);
  return new URLSearchParams(out).toString();
}

/** The page's own URL for a query (defaults left out, so plain /users stays plain). */
export function usersHref(q: UsersQuery): string {
  const search = params(q, (list) => list.map((s) => ["statuses", s]));
  return search ? `/users?${search}` : "/users";
}

/** The /api/tracked-users URL of the same list, without a cursor (islands add theirs). */
export function usersApiPath(q: UsersQuery): string {
  const search = params(
    { ...q, cursor: undefined },
    (list) => list.length ? [["statuses", list.join(",")]] : [],
  );
  return `/api/tracked-users?${search ? `${search}&` : ""}limit=${PAGE_SIZE}`;
}
