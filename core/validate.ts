// zod at the edge: a failed parse becomes one `validation` error listing every issue. Dashboard
// input is text for PostgreSQL, which cannot store a NUL character: one is a 400 here, never a
// database error later. Ingest keeps NULs and makes its text storable instead.
import type { z } from "zod";
import { validation } from "./errors.ts";

export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: string,
  options: { keepNul?: boolean } = {},
): z.infer<T> {
  const nul = options.keepNul ? null : nulPath(value);
  if (nul !== null) {
    throw validation(`invalid ${what}`, [{
      path: nul,
      message: "must not contain NUL characters",
    }]);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validation(
    `invalid ${what}`,
    result.error.issues.map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    })),
  );
}

/** The path of the first string (or object key) holding U+0000, or null when there is none. */
export function nulPath(value: unknown): string | null {
  const pending: Array<[unknown, string]> = [[value, ""]];
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (typeof item === "string") {
      if (item.includes("\0")) return path;
    } else if (item && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes("\0")) return childPath;
        pending.push([child, childPath]);
      }
    }
  }
  return null;
}
