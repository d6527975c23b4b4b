// GET /api/heatmaps and /api/heatmaps/pages (docs/decisions.md "Heatmaps"): one page's clicks by
// grid cell or element, or how far down its sessions scrolled, in one viewport band over a range of
// UTC days, from the sessions' shares (migration 0040); in a project of the active organization.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { AppError, validation } from "@/core/errors.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { NO_SEARCH, searchConditions } from "@/db/queries/sessions/search.ts";
import {
  type ClickMetric,
  gridCells,
  knownPath,
  type MapScope,
  rankedElements,
  sessionDepths,
  topPages,
  totalSessions,
} from "@/db/queries/heatmaps/map.ts";
import {
  CELL_PX,
  type Heatmap,
  type HeatmapInput,
  type HeatmapPages,
  type HeatmapPagesInput,
  MAX_ELEMENTS,
  MAX_PAGES,
  MAX_RANGE_DAYS,
  SCROLL_STEP_PX,
} from "./schema.ts";

type Deps = Pick<AppDeps, "db">;
const DAY_MS = 86_400_000;
/** The scroll map stops here (1,000 steps): no page is read deeper. */
const MAX_SCROLL_PX = 100_000;
const METRIC: Record<"click" | "rage" | "dead", ClickMetric> = {
  click: "clicks",
  rage: "rage",
  dead: "dead",
};

const bad = (path: string, message: string) => validation(message, [{ path, message }]);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The project (of the active organization) and the range's days, checked against its retention. */
async function scopeOf(
  deps: Deps,
  viewer: Viewer,
  input: HeatmapPagesInput,
  now: Date,
): Promise<{ projectId: string; from: string; to: string }> {
  const organizationId = activeOrganization(viewer);
  const project = await deps.db.kysely.selectFrom("projects").select(["id", "retention_days"])
    .where("id", "=", input.projectId).where("organization_id", "=", organizationId)
    .executeTakeFirst();
  // Another organization's project is not found, as every id of it is (the permission matrix),
  // and the answer names the field.
  if (!project) {
    const message = "no such project in the active organization";
    throw new AppError("not_found", message, { issues: [{ path: "projectId", message }] });
  }
  const to = input.to ?? dayOf(now.getTime());
  const from = input.from ?? dayOf(Date.parse(to) - 6 * DAY_MS);
  if (from > to) throw bad("from", "must not be after `to`");
  if (Date.parse(to) - Date.parse(from) >= MAX_RANGE_DAYS * DAY_MS) {
    throw bad("from", `a range is at most ${MAX_RANGE_DAYS} days`);
  }
  // The oldest day the project still keeps: a day before it has nothing left to show.
  const kept = dayOf(now.getTime() - project.retention_days * DAY_MS);
  if (from < kept) {
    throw bad("from", `before the project's retention (${project.retention_days} days: ${kept})`);
  }
  return { projectId: project.id, from, to };
}

export async function heatmapOf(
  deps: Deps,
  viewer: Viewer,
  input: HeatmapInput,
  now = new Date(),
): Promise<Heatmap> {
  if (input.kind === "scroll" && input.mode) {
    throw bad("mode", "a scroll map has no mode (it is by depth)");
  }
  const range = await scopeOf(deps, viewer, input, now);
  const db = deps.db.kysely;
  if (!(await knownPath(db, range.projectId, input.path))) {
    throw bad("path", "the project has no recorded view of this page");
  }
  const sessions = searchConditions(activeOrganization(viewer), {
    ...NO_SEARCH,
    user: input.user ?? null,
    browser: input.browser ?? null,
    device: input.device ?? null,
    signals: input.signals ?? null,
  });
  const scope: MapScope = { ...range, path: input.path, band: input.viewport, sessions };
  const common = {
    path: input.path,
    viewport: input.viewport,
    from: range.from,
    to: range.to,
    totalSessions: await totalSessions(db, scope),
  };
  if (input.kind === "scroll") {
    return { mode: "scroll", kind: "scroll", ...common, ...await scrollOf(db, scope) };
  }
  const metric = METRIC[input.kind];
  if (input.mode === "element") {
    const rows = await rankedElements(db, scope, metric, MAX_ELEMENTS);
    return {
      mode: "element",
      kind: input.kind,
      ...common,
      elements: rows.map((r) => ({
        selector: r.selector,
        count: r.count,
        sessions: r.sessions,
        rageCount: r.rage,
        deadCount: r.dead,
        rect: {
          x: r.min_x / 100,
          y: r.min_y * CELL_PX,
          width: (r.max_x - r.min_x + 1) / 100,
          height: (r.max_y - r.min_y + 1) * CELL_PX,
        },
      })),
    };
  }
  return {
    mode: "coordinate",
    kind: input.kind,
    ...common,
    cellWidthPercent: 1,
    cellHeightPx: CELL_PX,
    cells: await gridCells(db, scope, metric),
  };
}

/** Share of the sessions whose deepest point reached each step, down to the deepest seen. */
async function scrollOf(db: Deps["db"]["kysely"], scope: MapScope) {
  const rows = await sessionDepths(db, scope);
  if (!rows.length) return { depths: [], averageFoldPx: 0 };
  // Sorted once, then swept: a step's count is the sessions at or past it.
  const sorted = rows.map((r) => r.depth).sort((a, b) => a - b);
  const deepest = Math.min(sorted.at(-1)!, MAX_SCROLL_PX);
  const depths = [];
  let below = 0;
  for (let depthPx = 0; depthPx <= deepest; depthPx += SCROLL_STEP_PX) {
    while (below < sorted.length && sorted[below] < depthPx) below++;
    depths.push({ depthPx, reachedFraction: (sorted.length - below) / sorted.length });
  }
  const averageFoldPx = Math.round(rows.reduce((sum, r) => sum + r.fold, 0) / rows.length);
  return { depths, averageFoldPx };
}

export async function heatmapPagesOf(
  deps: Deps,
  viewer: Viewer,
  input: HeatmapPagesInput,
  now = new Date(),
): Promise<HeatmapPages> {
  const range = await scopeOf(deps, viewer, input, now);
  return { pages: await topPages(deps.db.kysely, range, MAX_PAGES) };
}
