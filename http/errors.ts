// An AppError (core/errors.ts) as every JSON answer gives it: its status, the one error body and
// its headers (Retry-After when it has one; a timed-out body closes the connection). The API's
// `renderError` (http/middleware.ts) and the routes that answer JSON (a link's events) both use it.
import { type AppError, errorBody } from "@/core/errors.ts";

/** The headers an error's answer carries. */
export function errorHeaders(error: AppError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.details.retryAfter !== undefined) {
    headers["Retry-After"] = String(error.details.retryAfter);
  }
  // The rest of a body that timed out may never come: the connection cannot be reused.
  if (error.kind === "request_timeout") headers["Connection"] = "close";
  return headers;
}

/** The error's answer outside Hono, with `headers` (a content type among them) added. */
export function errorResponse(error: AppError, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(errorBody(error)), {
    status: error.status,
    headers: { ...headers, ...errorHeaders(error) },
  });
}
