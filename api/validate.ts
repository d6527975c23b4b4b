// Request validation at the edge, documented where it is declared: `query(schema)` and
// `body(schema)` parse with zod (a failure is one `validation` error listing every issue), hand the
// result to the handler as `c.req.valid("query" | "json")`, and carry their OpenAPI parameters or
// request body for hono-openapi. `body` hands the JSON body (read by http/body.ts) to its schema.
import type { MiddlewareHandler } from "hono";
import { uniqueSymbol } from "hono-openapi";
import type { z } from "zod";
import { parseWith } from "@/core/validate.ts";
import { largeDecodes, parseJson, readWire } from "@/http/body.ts";
import type { ApiEnv } from "./env.ts";
import { jsonSchema, queryParameters } from "./openapi/schema.ts";

/** What tests read back to hold answers to the zod schemas (see tests/helpers/openapi_routes.ts). */
export const VALIDATED = new WeakMap<
  MiddlewareHandler,
  { query?: z.ZodType; body?: z.ZodType; bodyOptional?: boolean }
>();

type Validated<Target extends string, T extends z.ZodType> = MiddlewareHandler<
  ApiEnv,
  string,
  { out: { [K in Target]: z.output<T> } }
>;

// Not hono-openapi's `validator`: its parameters drop `required: false` and lift descriptions out
// of the schema, and its 400 has its own body; the document and the error shape are pinned by tests.
export function query<T extends z.ZodType>(schema: T): Validated<"query", T> {
  const middleware: Validated<"query", T> = async (c, next) => {
    c.req.addValidatedData("query", parseWith(schema, c.req.query(), "query") as object);
    await next();
  };
  VALIDATED.set(middleware, { query: schema });
  return Object.assign(middleware, {
    [uniqueSymbol]: { spec: { parameters: queryParameters(schema) } },
  });
}

/**
 * A JSON body; with `optional`, an empty body stands for `{}`. A NUL in any string is a 400
 * unless `keepNul` (ingest, whose schema makes the SDK's text storable instead).
 */
export function body<T extends z.ZodType>(
  schema: T,
  { optional = false, keepNul = false }: { optional?: boolean; keepNul?: boolean } = {},
): Validated<"json", T> {
  const middleware: Validated<"json", T> = async (c, next) => {
    // Reading the body is the body timeout's (408), not the database budget's (503).
    const wire = await readWire(c.req.raw, c.var.bodyTimeoutMs, c.get("databaseBudget"));
    c.set("wireBytes", wire.wireBytes);
    const decode = () =>
      parseWith(schema, parseJson(wire.bytes, optional), "body", { keepNul }) as object;
    try {
      // Large decodes take turns (http/body.ts); small ones, nearly all of them, never wait.
      c.req.addValidatedData("json", wire.large ? await largeDecodes.run(decode) : decode());
    } finally {
      wire.release();
    }
    await next();
  };
  return documentedBody(middleware, schema, optional);
}

/** A body reader carrying its schema for tests and the OpenAPI document (see `body`). */
export function documentedBody<M extends MiddlewareHandler>(
  middleware: M,
  schema: z.ZodType,
  optional = false,
): M {
  VALIDATED.set(middleware, { body: schema, bodyOptional: optional });
  const content = { "application/json": { schema: jsonSchema(schema, "input") } };
  return Object.assign(middleware, {
    [uniqueSymbol]: { spec: { requestBody: { required: !optional, content } } },
  });
}
