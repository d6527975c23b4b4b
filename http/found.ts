// Pages turn "not there" into a 404 page in one line: core/ throws not_found (also for another
// organization's resource), and a page wants null.
import { AppError } from "@/core/errors.ts";

/** The result, or null when core/ answered not_found; other errors go on. */
export async function orNull<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.kind === "not_found") return null;
    throw error;
  }
}

/** A plain 400 for a page request whose form or query fails validation. */
export function badRequest(error: unknown): Response {
  if (error instanceof AppError && error.kind === "validation") {
    return new Response(`Bad request: ${error.message}`, {
      status: 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  throw error;
}
