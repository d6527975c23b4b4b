// zod at the edge: a failed parse becomes one `validation` error listing every issue.
import type { z } from "zod";
import { validation } from "../core/errors.ts";

export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: string,
): z.infer<T> {
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
