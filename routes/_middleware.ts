// Per-request page state: the app's dependencies (put there by app.ts), the signed-in viewer
// (resolved from the session cookie by the same function as the /api middleware, http/session.ts), the viewer's organizations for the top
// bar and the request start time, reported back as a Server-Timing header. Pages are rendered per
// viewer (names, organizations, keys), so none may be kept by a browser or proxy cache unless the
// page says otherwise: `no-store`.
import type { FreshContext } from "$fresh/server.ts";
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { resolveViewer } from "@/http/session.ts";
import { accountLimitOf } from "@/http/account_limit.ts";
import { AppError } from "@/core/errors.ts";
import { listOrganizations } from "@/core/organizations/organizations.ts";
import type { OrganizationView } from "@/core/organizations/schema.ts";
import { listUserInvites, type UserInviteView } from "@/core/account/invites.ts";
import {
  pageDatabaseBudgetMs,
  startDatabaseBudget,
  withinDatabaseBudget,
} from "@/http/database_budget.ts";

export interface State {
  deps: AppDeps;
  /** null when signed out. */
  viewer: Viewer | null;
  /** The viewer's organizations (the switcher in the top bar); empty when signed out. */
  organizations: OrganizationView[];
  /** Invites waiting for the viewer's email (the frame's notice); empty when signed out. */
  invites: UserInviteView[];
  /** The client's address group (http/client_address.ts), put there by app.ts. */
  clientAddress?: string;
  /** The client's address itself (http/client_address.ts), put there by app.ts: the audit log's. */
  requestAddress?: string;
  /** performance.now() when the page layer received the request. */
  requestStart: number;
}

export async function handler(req: Request, ctx: FreshContext<State>) {
  ctx.state.requestStart = performance.now();
  // Like the API's dashboard budget: a page past it answers the 503 page (routes/_500.tsx) instead
  // of hanging on a database that does not answer.
  const budget = startDatabaseBudget(pageDatabaseBudgetMs(ctx.state.deps.config, req.method));
  const response = await withinDatabaseBudget(budget, async () => {
    const cookie = req.headers.get("cookie");
    const viewer = await resolveViewer(ctx.state.deps, cookie, ctx.state.requestAddress ?? null);
    ctx.state.viewer = viewer;
    if (!viewer) {
      ctx.state.organizations = [];
      ctx.state.invites = [];
      return await ctx.next();
    }
    // A page load holds one of its account's places, as an API request does.
    let leave: () => void;
    try {
      leave = accountLimitOf(ctx.state.deps).enter(viewer.userId);
    } catch (error) {
      if (error instanceof AppError && error.kind === "rate_limited") return tooManyRequests(error);
      throw error;
    }
    try {
      [ctx.state.organizations, ctx.state.invites] = await Promise.all([
        listOrganizations(ctx.state.deps, viewer),
        listUserInvites(ctx.state.deps, viewer),
      ]);
      return await ctx.next();
    } finally {
      leave();
    }
  });
  const duration = (performance.now() - ctx.state.requestStart).toFixed(1);
  response.headers.append("server-timing", `page;dur=${duration}`);
  if (!response.headers.has("cache-control")) response.headers.set("cache-control", "no-store");
  return response;
}

/** The account's own load: a plain page that says to retry, with the API's Retry-After. */
function tooManyRequests(error: AppError): Response {
  return new Response(`${error.message}.\n`, {
    status: 429,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "retry-after": String(error.details?.retryAfter ?? 1),
    },
  });
}
