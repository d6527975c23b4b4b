// What every /api/organizations route (organizations, members, invites) shares in its docs.
import { describe, type RouteDescription } from "@/api/openapi/route.ts";

/** A route of the organizations tag, called with the dashboard's session cookie. */
export const organizationDoc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "organizations", auth: "cookie", ...route });

export const ORG = { orgId: "an organization the viewer belongs to" };
