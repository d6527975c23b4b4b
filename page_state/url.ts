// How a page's URL query maps to the core schema its API endpoint reads (core/<resource>/schema.ts),
// so a page names no field of its own: a form's repeated fields (projects, signals, statuses) and
// the API's comma lists are both read, an empty field ("any") is absent, and a link leaves out
// what is at the schema's default, so a plain page keeps a plain URL.
import type { z } from "zod";
import { parseWith } from "@/core/validate.ts";

type QuerySchema = z.ZodObject;

/** The schema's output for a URL query; an unknown value throws a validation error (400). */
export function readQuery<S extends QuerySchema>(
  schema: S,
  params: URLSearchParams,
  fixed: Record<string, string | undefined> = {},
): z.output<S> {
  const fields: Record<string, string> = {};
  for (const name of new Set(params.keys())) {
    const value = params.getAll(name).filter((v) => v !== "").join(",");
    if (value !== "") fields[name] = value;
  }
  return parseWith(schema, { ...fields, ...fixed }, "query");
}

export interface WriteOptions {
  /** A page's URL repeats a list's field, as its form sends it; the API takes one comma list. */
  lists: "repeat" | "comma";
  /** Fields written even at their default. */
  keep?: readonly string[] | "all";
  /** Fields never written (the page's own constants, such as the API's page size). */
  omit?: readonly string[];
}

const defaultsOf = new WeakMap<QuerySchema, Record<string, unknown>>();

/** The query string of `values` in the schema's field order, without a leading `?`. */
export function writeQuery<S extends QuerySchema>(
  schema: S,
  values: Partial<z.output<S>>,
  { lists, keep = [], omit = [] }: WriteOptions,
): string {
  let defaults = defaultsOf.get(schema);
  if (!defaults) defaultsOf.set(schema, defaults = schema.parse({}) as Record<string, unknown>);
  const out: [string, string][] = [];
  for (const name of Object.keys(schema.shape)) {
    const value = (values as Record<string, unknown>)[name];
    if (omit.includes(name) || value === undefined || value === null || value === "") continue;
    if (value === defaults[name] && keep !== "all" && !keep.includes(name)) continue;
    if (!Array.isArray(value)) out.push([name, String(value)]);
    else if (lists === "comma" && value.length) out.push([name, value.join(",")]);
    else for (const item of value) out.push([name, String(item)]);
  }
  return new URLSearchParams(out).toString();
}

/** `path` with the query string, or the bare path when there is none. */
export function withQuery(path: string, query: string): string {
  return query ? `${path}?${query}` : path;
}
