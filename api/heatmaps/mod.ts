// /api/heatmaps (docs/decisions.md "Heatmaps"): a page's click and scroll maps, and the pages to
// choose from, in the active organization's projects.
import type { AppDeps } from "@/core/deps.ts";
import { heatmapOf, heatmapPagesOf } from "@/core/heatmaps/map.ts";
import { heatmap, heatmapPages, heatmapPagesQuery, heatmapQuery } from "@/core/heatmaps/schema.ts";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import { noStore } from "@/api/no_store.ts";
import { describe } from "@/api/openapi/route.ts";
import { query } from "@/api/validate.ts";

export function heatmapsRoutes(deps: AppDeps) {
  const app = dashboardApp(deps);
  app.use(noStore());
  app.get(
    "/",
    describe({
      summary: "A page's clicks by grid cell or element, or its scroll depth",
      description: "Over the page views of `path` in the `viewport` band from `from` to `to` " +
        "(UTC days): `kind` click, rage or dead by `mode` coordinate (cells of 1 % of the width " +
        "by 16 px) or element (ranked), or scroll (the share of sessions reaching each 100 px). " +
        "An unknown project or path, a range past the project's retention or a `mode` with " +
        "`scroll` is 400 naming the field.",
      tag: "heatmaps",
      auth: "cookie",
      errors: [400, 404],
      responses: { 200: { description: "the map", body: heatmap } },
    }),
    query(heatmapQuery),
    async (c) => c.json(await heatmapOf(deps, requireViewer(c), c.req.valid("query"))),
  );
  app.get(
    "/pages",
    describe({
      summary: "The project's pages with the most views, to choose a map from",
      description: "Paths with ids folded as /api/insights folds them, over `from` to `to`.",
      tag: "heatmaps",
      auth: "cookie",
      errors: [400, 404],
      responses: { 200: { description: "the pages", body: heatmapPages } },
    }),
    query(heatmapPagesQuery),
    async (c) => c.json(await heatmapPagesOf(deps, requireViewer(c), c.req.valid("query"))),
  );
  return app;
}
