// Dashboard pages need a signed-in viewer: visitors are sent to sign-in and back afterwards, and
// form posts must come from the app's own origin, as the API demands of its mutations.
import type { FreshContext } from "$fresh/server.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { seeOther } from "@/http/forms.ts";
import { fromOwnOrigin } from "@/http/same_origin.ts";
import { signInPath } from "@/http/next_path.ts";
import type { State } from "@/routes/_middleware.ts";

/** The page state below this folder: the viewer is always there. */
export interface DashboardState extends State {
  viewer: Viewer;
}

export async function handler(req: Request, ctx: FreshContext<State>) {
  if (!ctx.state.viewer) return seeOther(signInPath(ctx.url));
  if (!fromOwnOrigin(req, ctx.state.deps.config.appUrl)) {
    return new Response("cross-origin request refused", { status: 403 });
  }
  // Signed in for the first time on an invite: the landing is the invite, not an empty page.
  const { viewer, invites } = ctx.state;
  if (
    req.method === "GET" && ctx.url.pathname === "/sessions" && !viewer.activeOrganizationId &&
    invites.length > 0
  ) {
    return seeOther("/invites");
  }
  return await ctx.next();
}
