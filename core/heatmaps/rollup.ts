// A session's share of the heatmaps (docs/decisions.md "Heatmaps"), from what its recording says
// (recording/model/page_clicks.ts): per page (its path with ids folded as insights folds them),
// viewport band and UTC day of the view, its views and deepest point, and its clicks counted per
// element and grid cell with the rage and dead clicks among them. Plain values; the database
// sums these rows, so a map never reads events.
import type {
  ClickSignal,
  PageClick,
  PageClicks,
  PageView,
} from "@/recording/model/page_clicks.ts";
import { foldedPath } from "@/core/ingest/endpoint.ts";
import { pathnameOf } from "@/core/ingest/markers.ts";
import type { SessionShare } from "@/db/queries/heatmaps/write.ts";
import { type Band, bandOf, CELL_PX, CELLS_ACROSS } from "./schema.ts";

/** A page view's row (db/queries/heatmaps/write.ts), its band one of BANDS. */
export type ViewRow = SessionShare["views"][number] & { band: Band };
/** A click's row, per element and grid cell. */
export type ClickRow = SessionShare["clicks"][number] & { band: Band };

/** How far a signal's `at` may lie from its click's event time (both read Date.now() in one click). */
const SIGNAL_MATCH_MS = 250;
/** The SDK rounds the click point; rrweb records it as the browser gives it. */
const SIGNAL_MATCH_PX = 1;

type Keyed = { path: string; band: Band; day: string };
const keyOf = (view: PageView): Keyed => ({
  path: foldedPath(pathnameOf(view.href)),
  band: bandOf(view.width),
  day: new Date(view.ts).toISOString().slice(0, 10),
});

export function heatmapRows(read: Pick<PageClicks, "views" | "clicks" | "signals">): {
  views: ViewRow[];
  clicks: ClickRow[];
} {
  const keys = read.views.map((view) => (view.width > 0 ? keyOf(view) : null));
  const views = new Map<string, ViewRow>();
  read.views.forEach((view, i) => {
    const key = keys[i];
    if (!key) return;
    const id = `${key.path}\n${key.band}\n${key.day}`;
    const row = views.get(id);
    if (row) {
      row.views += view.resized ? 0 : 1;
      row.depthPx = Math.max(row.depthPx, view.depthPx);
    } else {
      views.set(id, {
        ...key,
        views: view.resized ? 0 : 1,
        depthPx: view.depthPx,
        foldPx: Math.round(view.height),
      });
    }
  });
  const flags = signalFlags(read.clicks, read.signals);
  const clicks = new Map<string, ClickRow>();
  read.clicks.forEach((click, i) => {
    const key = keys[click.view];
    if (!key) return;
    const { width } = read.views[click.view];
    const cellX = Math.min(CELLS_ACROSS - 1, Math.max(0, Math.floor((click.docX / width) * 100)));
    const cellY = Math.max(0, Math.floor(click.docY / CELL_PX));
    const id = `${key.path}\n${key.band}\n${key.day}\n${click.selector}\n${cellX}\n${cellY}`;
    const row = clicks.get(id) ??
      { ...key, selector: click.selector, cellX, cellY, clicks: 0, rage: 0, dead: 0, firstMs: 0 };
    // the replay opens a `clicked=` row at its first click (events are pushed in replay order,
    // which a late batch may break, hence the min)
    row.firstMs = row.clicks ? Math.min(row.firstMs, Math.round(click.ts)) : Math.round(click.ts);
    row.clicks++;
    if (flags[i].rage) row.rage++;
    if (flags[i].dead) row.dead++;
    clicks.set(id, row);
  });
  return { views: [...views.values()], clicks: [...clicks.values()] };
}

/** Which clicks the signals name: for each, the click at its point nearest its `at`. */
function signalFlags(clicks: readonly PageClick[], signals: readonly ClickSignal[]) {
  const flags = clicks.map(() => ({ rage: false, dead: false }));
  for (const signal of signals) {
    let best = -1;
    clicks.forEach((click, i) => {
      const off = Math.abs(click.ts - signal.at);
      if (
        off > SIGNAL_MATCH_MS || flags[i][signal.kind] ||
        Math.abs(click.clientX - signal.x) > SIGNAL_MATCH_PX ||
        Math.abs(click.clientY - signal.y) > SIGNAL_MATCH_PX
      ) return;
      if (best < 0 || off < Math.abs(clicks[best].ts - signal.at)) best = i;
    });
    if (best >= 0) flags[best][signal.kind] = true;
  }
  return flags;
}
