// Turns the route registry into an OpenAPI 3.1 document: zod → JSON Schema (draft 2020-12, which
// OpenAPI 3.1 uses as is), the three security schemes and the shared error body.
import { z } from "zod";
import { errorBody, KIND_OF_STATUS } from "./error_schema.ts";
import type { ResponseDoc, RouteDoc } from "./openapi_route.ts";

type Json = Record<string, unknown>;

const ERROR_REF = { $ref: "#/components/schemas/Error" };
const SECURITY: Record<RouteDoc["auth"], Json[]> = {
  cookie: [{ sessionCookie: [] }],
  "public-key": [{ publicKey: [] }],
  bearer: [{ cronSecret: [] }],
  none: [],
};

/** JSON Schema of a zod schema; requests are described by what they accept (`io: "input"`). */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    // The ISO pattern zod adds beside `format: date-time` says nothing a reader needs.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
    },
  }) as Json;
  return rest;
}

function parameters(route: RouteDoc): Json[] {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
    ...(route.params?.[name] ? { description: route.params[name] } : {}),
  }));
  if (!route.query) return path;
  const query = jsonSchema(route.query, "input");
  const properties = (query.properties ?? {}) as Record<string, Json>;
  const required = new Set((query.required ?? []) as string[]);
  return [
    ...path,
    ...Object.entries(properties).map(([name, schema]) => ({
      name,
      in: "query",
      required: required.has(name),
      schema,
    })),
  ];
}

function success(route: RouteDoc, response: ResponseDoc): Json {
  const headers: Json = {};
  if (route.noStore) headers["Cache-Control"] = { schema: { type: "string", const: "no-store" } };
  for (const [name, description] of Object.entries(response.headers ?? {})) {
    headers[name] = { description, schema: { type: "string" } };
  }
  const content = response.body
    ? { "application/json": { schema: jsonSchema(response.body, "output") } }
    : response.contentType
    ? { [response.contentType]: { schema: { type: "string" } } }
    : undefined;
  return {
    description: response.description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(content ? { content } : {}),
  };
}

/** Error statuses a route can answer: implied by how it is called, plus its own. */
export function errorStatuses(route: RouteDoc): number[] {
  const statuses = new Set(route.errors ?? []);
  if (route.auth !== "none") statuses.add(401);
  // Cookie-authenticated mutations are refused from another origin (CSRF) as well.
  if (route.role || (route.auth === "cookie" && route.method !== "get")) statuses.add(403);
  if (route.query || route.body) statuses.add(400);
  if (route.path.includes("{")) statuses.add(404);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function operation(route: RouteDoc): Json {
  const responses: Json = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = success(route, response);
  }
  for (const status of errorStatuses(route)) {
    responses[status] = {
      description: KIND_OF_STATUS[status] ?? "error",
      content: { "application/json": { schema: ERROR_REF } },
    };
  }
  const roleNote = route.role ? `Role: ${route.role} or above in the organisation.` : "";
  const description = [route.description, roleNote].filter(Boolean).join("\n\n");
  return {
    operationId: operationId(route),
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [route.tag],
    security: SECURITY[route.auth],
    ...(route.role ? { "x-min-role": route.role } : {}),
    parameters: parameters(route),
    ...(route.body
      ? {
        requestBody: {
          required: !route.bodyOptional,
          content: { "application/json": { schema: jsonSchema(route.body, "input") } },
        },
      }
      : {}),
    responses,
  };
}

/** `get /api/sessions/{id}/events` → `getSessionsIdEvents`: unique per method and path. */
function operationId(route: RouteDoc): string {
  const words = route.path.replace(/^\/api\//, "").split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

export function openApiDocument(routes: RouteDoc[], info: { version: string }): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method] = operation(route);
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
