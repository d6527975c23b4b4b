// The sessions page's URL (/sessions): its query is the sessions API's own
// (`sessionListQuery`, docs/decisions.md "Sessions"), read into core's SessionListInput and
// written back from one. The page's search box matches tracked users as well as session ids.
import { type SessionListInput, sessionListQuery } from "@/core/sessions/schema.ts";
import { readQuery, withQuery, writeQuery } from "./url.ts";

export const PAGE_SIZE = 20;

/** The page's own constants, never part of its URL. */
const PAGE_FIXED = { searchUsers: "true", limit: String(PAGE_SIZE) };
const NOT_IN_URL = Object.keys(PAGE_FIXED);

/** The query of a /sessions URL as core/ takes it; unknown values throw a validation error (400). */
export function readSessionsQuery(url: URL): SessionListInput {
  return readQuery(sessionListQuery, url.searchParams, PAGE_FIXED);
}

/** A link to the sessions page, narrowed by `q` (defaults left out: plain /sessions stays plain). */
export function sessionsHref(q: Partial<SessionListInput> = {}): string {
  return withQuery(
    "/sessions",
    writeQuery(sessionListQuery, q, { lists: "repeat", omit: NOT_IN_URL }),
  );
}

/** Whether any filter narrows the list (the empty state differs): a link without page or order. */
export function isFiltered(q: SessionListInput): boolean {
  return sessionsHref({ ...q, sort: undefined, sortDir: undefined, cursor: undefined }) !==
    sessionsHref();
}

/** The /api/sessions URL of the same list, without a cursor (islands add theirs). */
export function sessionsApiPath(q: SessionListInput): string {
  const query = writeQuery(
    sessionListQuery,
    { ...q, cursor: undefined, searchUsers: q.search ? true : undefined, limit: PAGE_SIZE },
    { lists: "comma", keep: ["limit"] },
  );
  return withQuery("/api/sessions", query);
}
