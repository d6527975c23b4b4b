// Saved searches: GET/POST /api/saved-searches, PATCH/DELETE /api/saved-searches/:id and
// GET /api/saved-searches/:id/open (docs/decisions.md "Saved searches").
import { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import {
  changeSavedSearch,
  createSavedSearch,
  listSavedSearches,
  openSavedSearch,
  removeSavedSearch,
} from "@/core/saved_searches/saved_searches.ts";
import {
  createSavedSearchBody,
  savedSearch,
  savedSearchList,
  savedSearchOpened,
  updateSavedSearchBody,
} from "@/core/saved_searches/schema.ts";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body } from "@/api/validate.ts";

const doc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "saved-searches", auth: "cookie", ...route });
const SEARCH = { id: "a saved search of the active organization" };

export function savedSearchRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);
  app.use(noStore());

  app.get(
    "/",
    doc({
      summary: "The organization's saved searches, newest first, with the member's newCount",
      responses: { 200: { description: "up to 200", body: savedSearchList } },
    }),
    async (c) => c.json(await listSavedSearches(deps, requireViewer(c))),
  );

  app.post(
    "/",
    doc({
      summary: "Save a sessions page query under a name (any member)",
      responses: { 201: { description: "the saved search", body: savedSearch } },
    }),
    body(createSavedSearchBody),
    async (c) => c.json(await createSavedSearch(deps, requireViewer(c), c.req.valid("json")), 201),
  );

  app.patch(
    "/:id",
    doc({
      summary: "Rename a saved search or change its query (its author or an ADMIN+)",
      params: SEARCH,
      responses: { 200: { description: "the saved search", body: savedSearch } },
      errors: [403],
    }),
    body(updateSavedSearchBody),
    async (c) =>
      c.json(
        await changeSavedSearch(deps, requireViewer(c), c.req.param("id"), c.req.valid("json")),
      ),
  );

  app.delete(
    "/:id",
    doc({
      summary: "Delete a saved search (its author or an ADMIN+)",
      description: "Refused (409) while an alert rule counts it: change or delete the rule first.",
      params: SEARCH,
      responses: { 204: { description: "deleted" } },
      errors: [403, 409],
    }),
    async (c) => {
      await removeSavedSearch(deps, requireViewer(c), c.req.param("id"));
      return c.body(null, 204);
    },
  );

  app.get(
    "/:id/open",
    doc({
      summary: "Mark a saved search seen by the member (its newCount starts again from now)",
      description: "A browser's navigation (Accept: text/html), as the sessions page's links, is " +
        "answered 303 to that page.",
      params: SEARCH,
      responses: {
        200: { description: "the sessions page to go to", body: savedSearchOpened },
        303: { description: "a browser's navigation", headers: { Location: "the sessions page" } },
      },
    }),
    async (c) => {
      const opened = await openSavedSearch(deps, requireViewer(c), c.req.param("id"));
      if (c.req.header("accept")?.includes("text/html")) return c.redirect(opened.href, 303);
      return c.json(opened);
    },
  );

  return app;
}
