// /api/insights (docs/decisions.md "Insights"): frustration signals and errors of the active
// organization's sessions.
import type { AppDeps } from "@/core/deps.ts";
import { insightsOf } from "@/core/insights/insights.ts";
import { insights, insightsQuery } from "@/core/insights/schema.ts";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import { noStore } from "@/api/no_store.ts";
import { describe } from "@/api/openapi/route.ts";
import { query } from "@/api/validate.ts";

export function insightsRoutes(deps: AppDeps) {
  const app = dashboardApp(deps);
  app.use(noStore());
  app.get(
    "/",
    describe({
      summary: "Top rage- and dead-clicked elements, errors, pages and a daily trend",
      description: "Over the signal markers (`rage_click`, `dead_click`, `error`) of sessions " +
        "created in `range`; ten rows per list, most sessions first; `daily` by UTC day of the " +
        "signal.",
      tag: "insights",
      auth: "cookie",
      errors: [400],
      responses: { 200: { description: "the insights", body: insights } },
    }),
    query(insightsQuery),
    async (c) => c.json(await insightsOf(deps, requireViewer(c), c.req.valid("query"))),
  );
  return app;
}
