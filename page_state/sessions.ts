// The sessions page's state in its URL query, with the API's names and values (docs/decisions.md
// "Sessions"): search, projectIds, range, sort, sortDir and cursor, and the search filters user,
// visited, signals, browser, os, device, minDuration and maxDuration. The filter form sends
// projects and signals as repeated fields; the API takes them comma-separated, and both are read
// here. The page's search box matches users as well as session ids (the API's `searchUsers`).
import { sessionListQuery } from "../core/sessions/schema.ts";
import { parseWith } from "../core/validate.ts";
import type { SessionListInput, SessionRange } from "../core/sessions/schema.ts";

type Signal = NonNullable<SessionListInput["signals"]>[number];
type Device = NonNullable<SessionListInput["device"]>;

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
  user: string;
  visited: string;
  /** Empty: no signal required. */
  signals: Signal[];
  browser: string;
  os: string;
  device: Device | "";
  minDuration: number | null;
  maxDuration: number | null;
  /** Set by the insights' links. */
  element: string;
  error: string;
}

/** The query of a /sessions URL; unknown values throw a validation error (400). */
export function readSessionsQuery(url: URL): SessionsQuery {
  const raw = Object.fromEntries(url.searchParams);
  const projectIds = url.searchParams.getAll("projectIds").join(",");
  const signals = url.searchParams.getAll("signals").join(",");
  // Empty form fields ("any") are absent, not invalid.
  for (const [name, value] of Object.entries(raw)) if (value === "") delete raw[name];
  const parsed = parseWith(sessionListQuery, {
    ...raw,
    projectIds,
    signals: signals || undefined,
    searchUsers: undefined,
    limit: undefined,
  }, "query");
  return {
    search: parsed.search?.trim() ?? "",
    projectIds: parsed.projectIds ?? [],
    range: parsed.range === "retention" ? "all" : parsed.range,
    sort: parsed.sort,
    sortDir: parsed.sortDir,
    cursor: parsed.cursor,
    user: parsed.user ?? "",
    visited: parsed.visited ?? "",
    signals: parsed.signals ?? [],
    browser: parsed.browser ?? "",
    os: parsed.os ?? "",
    device: parsed.device ?? "",
    minDuration: parsed.minDuration ?? null,
    maxDuration: parsed.maxDuration ?? null,
    element: parsed.element ?? "",
    error: parsed.error ?? "",
  };
}

/** The core/ input of the query: no project filter when none is chosen. */
export function listInput(q: SessionsQuery) {
  return {
    ...q,
    search: q.search || undefined,
    searchUsers: true,
    projectIds: q.projectIds.length ? q.projectIds : undefined,
    user: q.user || undefined,
    visited: q.visited || undefined,
    signals: q.signals.length ? q.signals : undefined,
    browser: q.browser || undefined,
    os: q.os || undefined,
    device: q.device || undefined,
    minDuration: q.minDuration ?? undefined,
    maxDuration: q.maxDuration ?? undefined,
    element: q.element || undefined,
    error: q.error || undefined,
  };
}

/** Whether any filter narrows the list (the empty state differs). */
export function isFiltered(q: SessionsQuery): boolean {
  return q.search !== "" || q.projectIds.length > 0 || q.range !== "all" || q.user !== "" ||
    q.visited !== "" || q.signals.length > 0 || q.browser !== "" || q.os !== "" ||
    q.device !== "" || q.minDuration !== null || q.maxDuration !== null || q.element !== "" ||
    q.error !== "";
}

function params(
  q: SessionsQuery,
  lists: (name: string, values: string[]) => [string, string][],
) {
  const out: [string, string][] = [];
  if (q.search) out.push(["search", q.search]);
  out.push(...lists("projectIds", q.projectIds));
  if (q.range !== "all") out.push(["range", q.range]);
  if (q.user) out.push(["user", q.user]);
  if (q.visited) out.push(["visited", q.visited]);
  out.push(...lists("signals", q.signals));
  if (q.browser) out.push(["browser", q.browser]);
  if (q.os) out.push(["os", q.os]);
  if (q.device) out.push(["device", q.device]);
  if (q.minDuration !== null) out.push(["minDuration", String(q.minDuration)]);
  if (q.maxDuration !== null) out.push(["maxDuration", String(q.maxDuration)]);
  if (q.element) out.push(["element", q.element]);
  if (q.error) out.push(["error", q.error]);
  if (q.sort !== "date") out.push(["sort", q.sort]);
  if (q.sortDir !== "desc") out.push(["sortDir", q.sortDir]);
  if (q.cursor) out.push(["cursor", q.cursor]);
  return new URLSearchParams(out).toString();
}

/** The page's own URL for a query (defaults left out, so plain /sessions stays plain). */
export function sessionsHref(q: SessionsQuery): string {
  const search = params(q, (name, values) => values.map((value) => [name, value]));
  return search ? `/sessions?${search}` : "/sessions";
}

/** The /api/sessions URL of the same list, without a cursor (islands add theirs). */
export function sessionsApiPath(q: SessionsQuery): string {
  const search = params(
    { ...q, cursor: undefined },
    (name, values) => values.length ? [[name, values.join(",")]] : [],
  );
  const users = q.search ? "searchUsers=true&" : "";
  return `/api/sessions?${search ? `${search}&` : ""}${users}limit=${PAGE_SIZE}`;
}
