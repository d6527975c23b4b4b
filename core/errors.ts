// Typed domain errors. Each surface maps them to its one wire form in one place (docs/decisions.md
// "Common API rules").

export type ErrorKind =
  | "auth"
  | "forbidden"
  | "not_found"
  | "validation"
  | "conflict"
  | "gone"
  | "request_timeout"
  | "payload_too_large"
  | "unsupported"
  | "rate_limited"
  | "unavailable"
  | "internal";

export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  auth: 401,
  forbidden: 403,
  not_found: 404,
  validation: 400,
  conflict: 409,
  gone: 410,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported: 415,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export interface ValidationIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: { issues?: ValidationIssue[]; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return STATUS_OF_KIND[this.kind];
  }
}

export const authError = (message = "authentication required") => new AppError("auth", message);
export const forbidden = (message = "your role does not allow this") =>
  new AppError("forbidden", message);
export const notFound = (what = "resource") => new AppError("not_found", `${what} not found`);
export const validation = (message: string, issues?: ValidationIssue[]) =>
  new AppError("validation", message, { issues });
export const conflict = (message: string) => new AppError("conflict", message);
/** A request body that did not finish arriving in time; the connection is closed with it. */
export const requestTimeout = (message: string) => new AppError("request_timeout", message);
export const payloadTooLarge = (message: string) => new AppError("payload_too_large", message);
export const unsupported = (message: string) => new AppError("unsupported", message);
export const rateLimited = (message: string, retryAfter: number) =>
  new AppError("rate_limited", message, { retryAfter });
export const unavailable = (message: string, retryAfter?: number) =>
  new AppError("unavailable", message, retryAfter === undefined ? {} : { retryAfter });

/** The wire body of an error, the same on every endpoint. */
export function errorBody(error: AppError): Record<string, unknown> {
  return {
    kind: error.kind,
    message: error.message,
    ...(error.details.issues ? { issues: error.details.issues } : {}),
    ...(error.details.retryAfter !== undefined ? { retryAfter: error.details.retryAfter } : {}),
  };
}
