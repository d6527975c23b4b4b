// The top bar's organization switcher posts here: switch, then back to the page it came from — or
// to that page's list when it showed one resource, which the new organization does not hold.
import { isProjectPath } from "@/page_state/projects.ts";
import { replayHref } from "@/page_state/replay.ts";
import { sessionsHref } from "@/page_state/sessions.ts";
import { trackedUserHref } from "@/page_state/tracked_user.ts";
import { trackedUsersHref } from "@/page_state/tracked_users.ts";
import type { Handlers } from "$fresh/server.ts";
import { z } from "zod";
import { switchOrganization } from "@/core/organizations/organizations.ts";
import { badRequest, orNull } from "@/http/found.ts";
import { parseForm, readForm, seeOther } from "@/http/forms.ts";
import { safeNextPath } from "@/http/next_path.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

const switchForm = z.object({ organizationId: z.string().min(1), next: z.string().optional() });

/** Pages of one resource fall back to their list; the rest are kept as they are. */
export function pageAfterSwitch(next: string): string {
  const path = new URL(next, "http://x").pathname;
  if (path.startsWith(trackedUserHref(""))) return trackedUsersHref();
  if (path.startsWith(replayHref(""))) return sessionsHref();
  if (isProjectPath(path)) return "/settings/organization";
  // Cursors and project filters belong to the organization left behind.
  return path === sessionsHref() || path === trackedUsersHref() ? path : next;
}

export const handler: Handlers<unknown, DashboardState> = {
  async POST(req, ctx) {
    const { deps, viewer } = ctx.state;
    const form = await readForm(req, deps.config.http.bodyTimeoutMs);
    if (form instanceof Response) return form;
    let input;
    try {
      input = parseForm(switchForm, form);
    } catch (error) {
      return badRequest(error);
    }
    // An organization the viewer is not a member of is not there for them.
    const switched = await orNull(switchOrganization(deps, viewer, input));
    if (switched === null) return ctx.renderNotFound();
    return seeOther(pageAfterSwitch(safeNextPath(input.next)));
  },
};
