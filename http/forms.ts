// Form posts on dashboard pages (post/redirect/get): the action a form names in its `intent`
// field, then a 303 back to the page with a fixed notice code — or, on a domain error, the page
// rendered again with it.
import type { z } from "zod";
import { parseWith } from "@/core/validate.ts";
import { AppError, validation } from "@/core/errors.ts";
import { readCapped } from "./body.ts";

/** Forms carry names and ids, never files. */
const MAX_FORM_BYTES = 1024 * 1024;

/** Why a form post failed, shown above the page it came from. */
export interface FormFailure {
  intent: string;
  message: string;
}

/** A notice code for the 303 back to the page (`?done=code`), or a response of its own. */
export type ActionResult = string | Response;
export type Actions = Record<string, (form: FormData) => Promise<ActionResult>>;

export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { ...headers, location } });
}

/** The form's fields as an object of strings (files are ignored), for zod. */
export function fields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") out[name] = value;
  return out;
}

export function parseForm<T extends z.ZodType>(schema: T, form: FormData): z.infer<T> {
  return parseWith(schema, fields(form), "form");
}

/**
 * The posted form, read within `timeoutMs` (HTTP_BODY_TIMEOUT_MS), or the response that refuses
 * it: 408 for a client that trickles it (the connection is closed), 413 past 1 MiB. A body that
 * is not a form reads as an empty one.
 */
export async function readForm(req: Request, timeoutMs: number): Promise<FormData | Response> {
  if (!req.body) return new FormData();
  try {
    const bytes = await readCapped(
      req.body,
      MAX_FORM_BYTES,
      "form",
      AbortSignal.timeout(timeoutMs),
    );
    const type = req.headers.get("content-type") ?? "";
    return await new Response(bytes as BodyInit, { headers: { "content-type": type } }).formData()
      .catch(() => new FormData());
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const headers = { "content-type": "text/plain; charset=utf-8", connection: "close" };
    return new Response(error.message, { status: error.status, headers });
  }
}

/** Runs the action the form names; domain errors go to `rerender` with their status. */
export async function runAction(
  req: Request,
  url: URL,
  actions: Actions,
  rerender: (failure: FormFailure, status: number) => Promise<Response>,
  bodyTimeoutMs: number,
): Promise<Response> {
  const form = await readForm(req, bodyTimeoutMs);
  if (form instanceof Response) return form;
  const intent = String(form.get("intent") ?? "");
  try {
    if (!Object.hasOwn(actions, intent)) throw validation(`unknown form action "${intent}"`);
    const result = await actions[intent](form);
    return typeof result === "string" ? seeOther(`${url.pathname}?done=${result}`) : result;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return await rerender({ intent, message: describe(error) }, error.status);
  }
}

function describe(error: AppError): string {
  const issues = error.details.issues ?? [];
  if (issues.length === 0) return error.message;
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
}
