// Signed-in test callers: users with a workspace, their session cookies, and requests that look
// like the app's own pages (same Origin) so the CSRF check lets mutations through.
import type { Role } from "@/db/schema.ts";
import { startSession } from "@/http/session.ts";
import type { TestApp } from "./app.ts";
import { insertMembership, insertOrganization, insertUser } from "./factories.ts";

export const APP_ORIGIN = "http://localhost:3000";

/** The Cookie header value of a fresh session for the user. */
export async function cookieFor(t: TestApp, userId: string): Promise<string> {
  return (await startSession(t.deps, userId)).split(";")[0];
}

/** A user who is `role` of a new organization (made active), with a session cookie. */
export async function signedInUser(
  t: TestApp,
  options: { role?: Role; organizationId?: string; email?: string } = {},
) {
  const db = t.db.kysely;
  const user = await insertUser(db, options.email);
  const organizationId = options.organizationId ?? (await insertOrganization(db)).id;
  await insertMembership(db, organizationId, user.id, options.role ?? "OWNER");
  await db.updateTable("users").set({ active_organization_id: organizationId })
    .where("id", "=", user.id).execute();
  return { user, organizationId, cookie: await cookieFor(t, user.id) };
}

/** Any Hono app (the root app, or a sub-app with its own env). */
export interface Requestable {
  request(path: string, init: RequestInit): Response | Promise<Response>;
}

export interface CallOptions {
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A same-origin JSON request, as the dashboard's own pages and islands make it. */
export async function call(
  app: Requestable,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Response> {
  // A header given as "" is left out (e.g. `Origin: ""` for a request without Origin).
  const headers = Object.fromEntries(
    Object.entries({ Origin: APP_ORIGIN, ...options.headers }).filter(([, v]) => v !== ""),
  );
  if (options.cookie) headers.Cookie = options.cookie;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  return await app.request(path, { method, headers, body });
}
