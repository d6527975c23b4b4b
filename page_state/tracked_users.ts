// The tracked users page's URL (/users): its query is the tracked users API's own
// (`trackedUserListQuery`, docs/decisions.md "Tracked users"), read into core's
// TrackedUserListInput and written back from one.
import { type TrackedUserListInput, trackedUserListQuery } from "@/core/tracked_users/schema.ts";
import { readQuery, withQuery, writeQuery } from "./url.ts";

export const PAGE_SIZE = 25;

/** The page's own constants, never part of its URL. */
const PAGE_FIXED = { projectIds: undefined, limit: String(PAGE_SIZE) };
const NOT_IN_URL = Object.keys(PAGE_FIXED);

/** The query of a /users URL as core/ takes it; unknown values throw a validation error (400). */
export function readTrackedUsersQuery(url: URL): TrackedUserListInput {
  return readQuery(trackedUserListQuery, url.searchParams, PAGE_FIXED);
}

/** A link to the tracked users page (defaults left out: plain /users stays plain). */
export function trackedUsersHref(q: Partial<TrackedUserListInput> = {}): string {
  return withQuery(
    "/users",
    writeQuery(trackedUserListQuery, q, { lists: "repeat", omit: NOT_IN_URL }),
  );
}

/** Whether any filter narrows the list (the empty state differs): a link without page or order. */
export function isFiltered(q: TrackedUserListInput): boolean {
  return trackedUsersHref({ ...q, sort: undefined, sortDir: undefined, cursor: undefined }) !==
    trackedUsersHref();
}

/** The /api/tracked-users URL of the same list, without a cursor (islands add theirs). */
export function trackedUsersApiPath(q: TrackedUserListInput): string {
  const query = writeQuery(
    trackedUserListQuery,
    { ...q, cursor: undefined, limit: PAGE_SIZE },
    { lists: "comma", keep: ["limit"] },
  );
  return withQuery("/api/tracked-users", query);
}
