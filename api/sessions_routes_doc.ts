// Route docs of /api/sessions: list, summary, detail, deletion, events and markers, all in the
// viewer's active organisation (none → 400; another organisation's session → 404), no-store.
import { describeRoute, type RouteDoc } from "./openapi_route.ts";
import {
  markersQuery,
  sessionDetail,
  sessionEvents,
  sessionFilterQuery,
  sessionListPage,
  sessionListQuery,
  sessionMarkers,
  sessionSummary,
} from "./sessions_schema.ts";

const base = { tag: "sessions", auth: "cookie", noStore: true, errors: [400] } as const;
const ID = { id: "a session of the active organisation" };
const read = (doc: Omit<RouteDoc, keyof typeof base | "method">) =>
  describeRoute({ ...base, method: "get", ...doc });

export const sessionRoutes = [
  read({
    path: "/api/sessions",
    summary: "Sessions, keyset-paginated",
    description: "`search`: case-insensitive substring of externalId; `projectIds`: comma " +
      "separated (others' are ignored); `range` applies to createdAt; `limit` 1..100.",
    query: sessionListQuery,
    responses: { 200: { description: "a page", body: sessionListPage } },
  }),
  read({
    path: "/api/sessions/summary",
    summary: "KPIs of the filtered sessions",
    query: sessionFilterQuery,
    responses: { 200: { description: "totals (durations in ms)", body: sessionSummary } },
  }),
  read({
    path: "/api/sessions/{id}",
    summary: "One session: every stored field, its tracked user and markers",
    params: ID,
    responses: { 200: { description: "the session", body: sessionDetail } },
  }),
  describeRoute({
    ...base,
    method: "delete",
    path: "/api/sessions/{id}",
    summary: "Delete a session with its events and markers",
    role: "ADMIN",
    params: ID,
    responses: { 204: { description: "deleted" } },
  }),
  read({
    path: "/api/sessions/{id}/markers",
    summary: "A session's markers, optionally of one kind",
    params: ID,
    query: markersQuery,
    responses: { 200: { description: "markers in time order", body: sessionMarkers } },
  }),
  read({
    path: "/api/sessions/{id}/events",
    summary: "A session's event batches for replay (streamed)",
    description: "Ordered by firstTimestamp, then id; `data` is never decompressed server-side.",
    params: ID,
    responses: { 200: { description: "every batch", body: sessionEvents } },
  }),
];
