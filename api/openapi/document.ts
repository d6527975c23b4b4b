// The OpenAPI 3.1 document of the /api app: hono-openapi walks the mounted routes and merges what
// `describe()`, `query()`, `body()` and `noStore()` declared; this module adds what follows from
// a route's shape (its error answers, a stable operationId, the no-store header) and the parts
// every route shares (security schemes, the error body).
import { Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import type { ApiEnv } from "@/api/env.ts";
import { errorBody, KIND_OF_STATUS } from "@/api/error_schema.ts";
import { type Json, jsonSchema } from "./schema.ts";

const ERROR_REF = { $ref: "#/components/schemas/Error" };

/** The shape of a route that decides which errors it can answer. */
export interface RouteShape {
  method: string;
  /** As OpenAPI writes it: `/api/sessions/{id}`. */
  path: string;
  authenticated: boolean;
  cookie: boolean;
  role: boolean;
  validates: boolean;
  /** Reads a request body (which can time out: 408). */
  body: boolean;
  errors?: readonly number[];
}

/** Error statuses a route can answer: implied by how it is called, plus its own. */
export function errorStatuses(route: RouteShape): number[] {
  const statuses = new Set(route.errors ?? []);
  if (route.authenticated) statuses.add(401);
  // Cookie-authenticated mutations are refused from another origin (CSRF) as well.
  if (route.role || (route.cookie && route.method !== "get")) statuses.add(403);
  if (route.validates) statuses.add(400);
  if (route.body) statuses.add(408);
  if (route.path.includes("{")) statuses.add(404);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

/** `get /api/sessions/{id}/events` → `getSessionsIdEvents`: unique per method and path. */
function operationId(method: string, path: string): string {
  const words = path.replace(/^\/api\//, "").split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/** Path parameters in path order, then query parameters; undescribed path ones as plain strings. */
function parameters(path: string, declared: Json[]): Json[] {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const found = declared.find((p) => p.in === "path" && p.name === name);
    return found ?? { name, in: "path", required: true, schema: { type: "string" } };
  });
  return [...pathParams, ...declared.filter((p) => p.in !== "path")];
}

function finish(method: string, path: string, op: Json): Json {
  const { "x-no-store": noStore, "x-errors": errors, operationId: _, ...rest } = op;
  const security = (op.security ?? []) as Json[];
  const params = parameters(path, (op.parameters ?? []) as Json[]);
  const responses = { ...(op.responses as Record<string, Json>) };
  if (noStore) {
    for (const [status, response] of Object.entries(responses)) {
      const headers = { "Cache-Control": { schema: { type: "string", const: "no-store" } } };
      responses[status] = { ...response, headers: { ...headers, ...(response.headers ?? {}) } };
    }
  }
  const shape: RouteShape = {
    method,
    path,
    authenticated: security.length > 0,
    cookie: security.some((s) => "sessionCookie" in s),
    role: "x-min-role" in op,
    validates: params.some((p) => p.in === "query") || "requestBody" in op,
    body: "requestBody" in op,
    errors: errors as number[] | undefined,
  };
  for (const status of errorStatuses(shape)) {
    responses[status] = {
      description: KIND_OF_STATUS[status] ?? "error",
      content: { "application/json": { schema: ERROR_REF } },
    };
  }
  return { operationId: operationId(method, path), ...rest, parameters: params, responses };
}

/** The document of an /api sub-app mounted at `/api`. */
export async function openApiDocument(api: Hono<ApiEnv>, info: { version: string }): Promise<Json> {
  const generated = await generateSpecs(new Hono<ApiEnv>().route("/api", api), {
    excludeMethods: [],
    excludeStaticFile: false,
    documentation: {},
  });
  const paths: Record<string, Record<string, Json>> = {};
  for (const [path, operations] of Object.entries(generated.paths ?? {})) {
    for (const [method, op] of Object.entries(operations ?? {})) {
      paths[path] ??= {};
      paths[path][method] = finish(method, path, op as Json);
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Playhead API",
      version: info.version,
      description: "Session recording: SDK ingest and the dashboard's data. Durations are " +
        "milliseconds; timestamps are ISO 8601 UTC, recording timestamps epoch milliseconds.",
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBody, "output") },
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "playhead_session",
          description: "Signed session cookie (`__Host-playhead_session` over https). " +
            "Mutations must also come from the app's own origin.",
        },
        publicKey: {
          type: "apiKey",
          in: "header",
          name: "x-service-public-key",
          description: "A project's public key, `sp_` and 32 hex digits.",
        },
        cronSecret: {
          type: "http",
          scheme: "bearer",
          description: "CRON_SECRET; not checked when it is unset.",
        },
      },
    },
  };
}
