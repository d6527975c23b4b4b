// Route docs of the SDK's key-authenticated surface: ingest, SDK-side cancel and their CORS
// preflights. Every answer is no-store and carries open CORS headers, errors too.
import { cancelBodySchema, ingestBodySchema } from "./ingest_schema.ts";
import { describeRoute, type RouteDoc } from "./openapi_route.ts";

const CORS = { "Access-Control-Allow-Origin": "*" };

const preflight = (path: string): RouteDoc =>
  describeRoute({
    method: "options",
    path,
    summary: "CORS preflight",
    tag: "ingest",
    auth: "none",
    noStore: true,
    responses: { 204: { description: "allowed from any origin", headers: CORS } },
  });

export const ingestRoutes = [
  describeRoute({
    method: "post",
    path: "/api/ingest",
    summary: "Store a batch of recorded events",
    description: "Body as JSON, optionally `Content-Encoding: gzip`; 10 MiB on the wire, 64 MiB " +
      "decoded. A batch identical to one already stored for the session is answered 204 again.",
    tag: "ingest",
    auth: "public-key",
    body: ingestBodySchema,
    noStore: true,
    responses: { 204: { description: "stored", headers: CORS } },
    errors: [413, 415],
  }),
  preflight("/api/ingest"),
  describeRoute({
    method: "post",
    path: "/api/sessions/cancel",
    summary: "Delete a session the SDK decided not to keep",
    description: "204 also when the key's project has no such session.",
    tag: "ingest",
    auth: "public-key",
    body: cancelBodySchema,
    noStore: true,
    responses: { 204: { description: "deleted (or there was none)", headers: CORS } },
    errors: [413, 415],
  }),
  preflight("/api/sessions/cancel"),
];
