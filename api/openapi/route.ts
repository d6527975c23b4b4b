// A route's documentation, written once beside its handler. `describe()` is hono-openapi's
// `describeRoute` with our conventions (auth → security scheme, minimum role, success responses
// from zod schemas); `query()`/`body()` in api/validate.ts and `noStore()` in api/no_store.ts add
// the parameters, the request body and the no-store header. api/openapi/document.ts derives the
// implied error answers and writes the OpenAPI document from the app's routes.
import { describeRoute, type DescribeRouteOptions } from "hono-openapi";
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { Role } from "@/core/permissions.ts";
import { jsonSchema } from "./schema.ts";

/** cookie: the dashboard session; public-key: the SDK's project key; bearer: CRON_SECRET. */
export type RouteAuth = "cookie" | "public-key" | "bearer" | "none";

export interface ResponseDoc {
  description: string;
  /** The JSON body; omitted for an empty answer (204, 302) or a non-JSON one. */
  body?: z.ZodType;
  /** A non-JSON body (e.g. image/svg+xml), described as a string. */
  contentType?: string;
  /** Response headers worth knowing (besides Cache-Control, see `noStore`). */
  headers?: Record<string, string>;
}

export interface RouteDescription {
  summary: string;
  description?: string;
  tag: string;
  auth: RouteAuth;
  /** The lowest role in the active (or named) organization that may call it. */
  role?: Role;
  /** Descriptions of path parameters; each `{name}` not listed here is a plain string. */
  params?: Record<string, string>;
  /** Successful answers by status. */
  responses: Record<number, ResponseDoc>;
  /** Error statuses beyond those implied by auth, role, params, query and body. */
  errors?: readonly number[];
}

const SECURITY: Record<RouteAuth, Record<string, string[]>[]> = {
  cookie: [{ sessionCookie: [] }],
  "public-key": [{ publicKey: [] }],
  bearer: [{ cronSecret: [] }],
  none: [],
};

/** What each documenting middleware said, for tests that hold answers to the zod schemas. */
export const DESCRIPTIONS = new WeakMap<MiddlewareHandler, RouteDescription>();

export function describe(route: RouteDescription): MiddlewareHandler {
  const roleNote = route.role ? `Role: ${route.role} or above in the organization.` : "";
  const description = [route.description, roleNote].filter(Boolean).join("\n\n");
  const middleware = describeRoute(
    ({
      summary: route.summary,
      ...(description ? { description } : {}),
      tags: [route.tag],
      security: SECURITY[route.auth],
      ...(route.role ? { "x-min-role": route.role } : {}),
      ...(route.errors ? { "x-errors": [...route.errors] } : {}),
      parameters: Object.entries(route.params ?? {}).map(([name, description]) => ({
        name,
        in: "path",
        required: true,
        schema: { type: "string" },
        description,
      })),
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, response]) => [status, success(response)]),
      ),
    }) as unknown as DescribeRouteOptions,
  );
  DESCRIPTIONS.set(middleware, route);
  return middleware;
}

function success(response: ResponseDoc) {
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).map((
      [name, description],
    ) => [name, { description, schema: { type: "string" } }]),
  );
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
