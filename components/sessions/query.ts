// The sessions page's state in its URL query, with the API's names and values (DECISIONS
// "Sessions"): search, projectIds, range, sort, sortDir and cursor. The filter form sends projects
// as repeated `projectIds`; the API takes them comma-separated, and both are read here.
import { sessionListQuery } from "../../core/sessions/schema.ts";
import { parseWith } from "../../core/validate.ts";
import type { SessionListInput, SessionRange } from "../../core/sessions/schema.ts";

type SessionSort = SessionListInput["sort"];
type SortDir = SessionListInput["sortDir"];

export const PAGE_SIZE = 20;

export interface SessionsQuery {
  search: string;
  /** Empty: every project. */
  projectIds: string[];
  range: SessionRange;
  sort: SessionSort;
  sortDir: SortDir;
  cursor?: string;
}

/** The query of a /sessions URL; unknown values throw a validation error (400). */
export function readSessionsQuery(url: URL): SessionsQuery {
  const raw = Object.fromEntries(url.searchParams);
  const projectIds = url.searchParams.getAll("projectIds").join(",");
  const parsed = parseWith(sessionListQuery, { ...raw, projectIds, limit: undefined }, "query");
  return {
    search: parsed.search?.trim() ?? "",
    projectIds: parsed.projectIds ?? [],
    range: parsed.range === "retention" ? "all" : parsed.range,
    sort: parsed.sort,
    sortDir: parsed.sortDir,
    cursor: parsed.cursor,
  };
}

/** The core/ input of the query: no project filter when none is chosen. */
export function listInput(q: SessionsQuery) {
  return {
    ...q,
    search: q.search || undefined,
    projectIds: q.projectIds.length ? q.projectIds : undefined,
  };
}

/** Whether any filter narrows the list (the empty state differs). */
export function isFiltered(q: SessionsQuery): boolean {
  return q.search !== "" || q.projectIds.length > 0 || q.range !== "all";
}

function params(q: SessionsQuery, projects: (ids: string[]) => [string, string][]) {
  const out: [string, string][] = [];
  if (q.search) out.push(["search", q.search]);
  out.push(...projects(q.projectIds));
  if (q.range !== "all") out.push(["range", q.range]);
  if (q.sort !== "date") out.push(["sort", q.sort]);
  if (q.sortDir !== "desc") out.push(["sortDir", q.sortDir]);
  if (q.cursor) out.push(["cursor", q.cursor]);
  return new URLSearchParams(out).toString();
}

/** The page's own URL for a query (defaults left out, so plain /sessions stays plain). */
export function sessionsHref(q: SessionsQuery): string {
  const search = params(q, (ids) => ids.map((id) => ["projectIds", id]));
  return search ? `/sessions?${search}` : "/sessions";
}

/** The /api/sessions URL of the same list, without a cursor (islands add theirs). */
export function sessionsApiPath(q: SessionsQuery): string {
  const search = params(
    { ...q, cursor: undefined },
    (ids) => ids.length ? [["projectIds", ids.join(",")]] : [],
  );
  return `/api/sessions?${search ? `${search}&` : ""}limit=${PAGE_SIZE}`;
}
