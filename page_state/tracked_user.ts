// A tracked user's page URL (/users/:id): the charts' window (`range`, the timeline API's) and
// the sessions list's cursor (its "Load more" link without JavaScript), read as core's schemas
// take them and written back whole.
import type { z } from "zod";
import { timelineQuery, userSessionsQuery } from "@/core/tracked_users/schema.ts";
import { readQuery, withQuery, writeQuery } from "./url.ts";

export const SESSIONS_PAGE_SIZE = 20;

const trackedUserPageQuery = timelineQuery.extend({ cursor: userSessionsQuery.shape.cursor });
export type TrackedUserPageQuery = z.output<typeof trackedUserPageQuery>;

/** An unknown window throws a validation error (400). */
export function readTrackedUserQuery(url: URL): TrackedUserPageQuery {
  return readQuery(trackedUserPageQuery, url.searchParams);
}

/** A link to a tracked user's page; with a query, its window is always named. */
export function trackedUserHref(id: string, q?: Partial<TrackedUserPageQuery>): string {
  const path = `/users/${encodeURIComponent(id)}`;
  return q
    ? withQuery(path, writeQuery(trackedUserPageQuery, q, { lists: "comma", keep: "all" }))
    : path;
}

export function trackedUserSessionsApiPath(id: string): string {
  const query = writeQuery(userSessionsQuery, { limit: SESSIONS_PAGE_SIZE }, {
    lists: "comma",
    keep: "all",
  });
  return `/api/tracked-users/${encodeURIComponent(id)}/sessions?${query}`;
}

/** The user's data as one JSON file (`GET /api/tracked-users/:id/export`, ADMIN+). */
export function trackedUserExportPath(id: string): string {
  return `/api/tracked-users/${encodeURIComponent(id)}/export`;
}
