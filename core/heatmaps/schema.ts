// Wire schemas of GET /api/heatmaps and /api/heatmaps/pages (docs/decisions.md "Heatmaps"), and the
// map's plain rules: viewport bands, the grid's cell, the scroll map's step.
import { z } from "zod";

export const BANDS = ["narrow", "medium", "wide"] as const;
export type Band = (typeof BANDS)[number];
/** A viewport narrower than this is `narrow`; from it to WIDE_PX `medium`; from WIDE_PX `wide`. */
export const MEDIUM_PX = 768;
export const WIDE_PX = 1280;

export function bandOf(width: number): Band {
  return width < MEDIUM_PX ? "narrow" : width < WIDE_PX ? "medium" : "wide";
}

/** The grid: 1 % of the page's width across, CELL_PX of the document down. */
export const CELLS_ACROSS = 100;
export const CELL_PX = 16;
/** The scroll map's step. */
export const SCROLL_STEP_PX = 100;
/** Ranked elements answered at most. */
export const MAX_ELEMENTS = 100;
/** Pages answered at most. */
export const MAX_PAGES = 50;
/** A range longer than this is refused (no project keeps sessions longer: retention <= 365). */
export const MAX_RANGE_DAYS = 366;

const day = z.iso.date();

const rangeFields = {
  projectId: z.string().min(1).max(100),
  from: day.optional().meta({ description: "first UTC day (default: 6 days before `to`)" }),
  to: day.optional().meta({ description: "last UTC day, inclusive (default: today)" }),
};

const filterFields = {
  browser: z.string().max(100).optional().meta({ description: "as the sessions list's" }),
  device: z.enum(["desktop", "mobile", "tablet"]).optional(),
  user: z.string().max(200).optional().meta({
    description: "tracked user's id, name or trait value, as the sessions list's `user`",
  }),
  signals: z.string().max(100).transform((text) =>
    text.split(",").map((kind) => kind.trim()).filter(Boolean)
  ).pipe(z.array(z.enum(["error", "rage_click", "dead_click"])))
    .transform((kinds) => kinds.length ? [...new Set(kinds)] : undefined).optional().meta({
      description: "comma list: sessions with at least one of each",
    }),
};

export const heatmapQuery = z.object({
  ...rangeFields,
  path: z.string().min(1).max(1024).meta({
    description: "a page as /api/heatmaps/pages lists it (ids folded: `/orders/:id`)",
  }),
  kind: z.enum(["click", "rage", "dead", "scroll"]).default("click"),
  viewport: z.enum(BANDS).default("wide").meta({
    description: "`narrow` < 768 px, `medium` 768–1,279, `wide` >= 1,280",
  }),
  mode: z.enum(["coordinate", "element"]).optional().meta({
    description: "clicks (`click`, `rage`, `dead`) by grid cell (default) or by element; " +
      "not with `scroll`",
  }),
  ...filterFields,
});
export type HeatmapInput = z.output<typeof heatmapQuery>;

/** The /heatmaps page's URL: the map's query, with the project and page chosen for it if left out. */
export const heatmapPageQuery = heatmapQuery.extend({
  projectId: rangeFields.projectId.optional(),
  path: z.string().min(1).max(1024).optional(),
});
export type HeatmapPageInput = z.output<typeof heatmapPageQuery>;

export const heatmapPagesQuery = z.object(rangeFields);
export type HeatmapPagesInput = z.output<typeof heatmapPagesQuery>;

const count = z.number().int();
const common = {
  path: z.string(),
  viewport: z.enum(BANDS),
  from: day,
  to: day,
  totalSessions: count.meta({ description: "sessions with a view of the page in the band" }),
};

export const heatmapCell = z.strictObject({
  x: count.meta({ description: "0–99: the percent of the page's width" }),
  y: count.meta({ description: "the document's px / 16" }),
  count,
});

export const heatmapElement = z.strictObject({
  selector: z.string().meta({ description: "as /api/insights names elements" }),
  count: count.meta({ description: "clicks (of the kind asked)" }),
  sessions: count,
  rageCount: count.meta({ description: "rage bursts it started" }),
  deadCount: count,
  rect: z.strictObject({
    x: z.number().meta({ description: "fraction of the page's width" }),
    y: z.number().meta({ description: "document px" }),
    width: z.number().meta({ description: "fraction of the page's width" }),
    height: z.number().meta({ description: "px" }),
  }).meta({ description: "the cells its clicks fell in, as one box" }),
});

export const heatmap = z.discriminatedUnion("mode", [
  z.strictObject({
    mode: z.literal("coordinate"),
    kind: z.enum(["click", "rage", "dead"]),
    ...common,
    cellWidthPercent: z.literal(1),
    cellHeightPx: z.literal(CELL_PX),
    cells: z.array(heatmapCell),
  }),
  z.strictObject({
    mode: z.literal("element"),
    kind: z.enum(["click", "rage", "dead"]),
    ...common,
    elements: z.array(heatmapElement).meta({ description: "most clicks first" }),
  }),
  z.strictObject({
    mode: z.literal("scroll"),
    kind: z.literal("scroll"),
    ...common,
    depths: z.array(z.strictObject({
      depthPx: count,
      reachedFraction: z.number().meta({ description: "of totalSessions, 0–1" }),
    })).meta({ description: "every 100 px down to the deepest point seen" }),
    averageFoldPx: count.meta({ description: "the viewports' mean height" }),
  }),
]);
export type Heatmap = z.output<typeof heatmap>;

export const heatmapPages = z.strictObject({
  pages: z.array(z.strictObject({
    path: z.string(),
    views: count,
    sessions: count,
  })).meta({ description: "most views first, at most 50" }),
});
export type HeatmapPages = z.output<typeof heatmapPages>;
