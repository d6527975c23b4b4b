// zod → JSON Schema (draft 2020-12, which OpenAPI 3.1 uses as is), the one conversion every part
// of the document goes through.
import { z } from "zod";

export type Json = Record<string, unknown>;

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

/** Query parameters of an object schema, one per property. */
export function queryParameters(query: z.ZodType): Json[] {
  const schema = jsonSchema(query, "input");
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
  }));
}
