// The shape of one documented endpoint: the registry's entries are built from the same zod
// schemas the handlers parse with, and api/openapi_document.ts turns them into OpenAPI 3.1.
import type { z } from "zod";
import type { Role } from "../db/schema.ts";

export type HttpMethod = "get" | "post" | "patch" | "delete" | "options";

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

export interface RouteDoc {
  method: HttpMethod;
  /** The path as OpenAPI writes it, from the service root: `/api/sessions/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: RouteAuth;
  /** The lowest role in the active (or named) organisation that may call it. */
  role?: Role;
  /** Path parameters; each `{name}` of the path not listed here is a plain string. */
  params?: Record<string, string>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be left out altogether. */
  bodyOptional?: boolean;
  /** Successful answers by status. */
  responses: Record<number, ResponseDoc>;
  /** Error statuses beyond those implied by auth, role, params, query and body. */
  errors?: readonly number[];
  /** Answers carry `Cache-Control: no-store` (DECISIONS "Common API rules"). */
  noStore?: boolean;
}

/** One registry entry; an identity function so entries read as declarations and stay typed. */
export function describeRoute(doc: RouteDoc): RouteDoc {
  return doc;
}
