// The user page's state in its URL: the charts' window (`range`, as the API names it) and the
// sessions list's cursor (its "Load more" link without JavaScript).
import { timelineQuery, userSessionsQuery } from "../core/tracked_users/schema.ts";
import type { Range } from "../core/tracked_users/timeline.ts";
import { parseWith } from "../core/validate.ts";

export const SESSIONS_PAGE_SIZE = 20;

const userPageQuery = timelineQuery.extend({ cursor: userSessionsQuery.shape.cursor });

export interface UserPageQuery {
  range: Range;
  cursor?: string;
}

/** An unknown window throws a validation error (400). */
export function readUserPageQuery(url: URL): UserPageQuery {
  return parseWith(userPageQuery, Object.fromEntries(url.searchParams), "query");
}

export function userHref(id: string, q: UserPageQuery): string {
  const params = new URLSearchParams({ range: q.range });
  if (q.cursor) params.set("cursor", q.cursor);
  return `/users/${encodeURIComponent(id)}?${params}`;
}

export function userSessionsApiPath(id: string): string {
  return `/api/tracked-users/${encodeURIComponent(id)}/sessions?limit=${SESSIONS_PAGE_SIZE}`;
}
