// The heat layer of /heatmaps as plain drawing and hit tests (docs/decisions.md "Heatmaps"), in the
// page's own px: blobs per grid cell, boxes of elements (where the element is laid out in the
// page's frame when the island could measure it, else where its clicks fell), the share of
// sessions reaching each depth with the average fold; what lies under a point and the sessions
// link it opens.
import type { Heatmap } from "@/core/heatmaps/schema.ts";
import { CELL_PX, SCROLL_STEP_PX } from "@/core/heatmaps/schema.ts";
import { clickedCellValue } from "@/core/heatmaps/clicked_cell.ts";
import { mapSessionsHref } from "@/page_state/heatmaps.ts";

export type Element = Extract<Heatmap, { mode: "element" }>["elements"][number];
export type Cell = Extract<Heatmap, { mode: "coordinate" }>["cells"][number];
/** A box in the page's px. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
/** Elements' boxes as laid out in the frame, by selector (those not in it are absent). */
export type Measured = ReadonlyMap<string, Box>;

/** The box of an element's clicks, at least MIN_BOX px each way around its centre. */
const MIN_BOX = 28;

/** Where an element is boxed: its layout in the frame, else the cells its clicks fell in. */
export function boxOf(e: Element, width: number, measured: Measured): Box & { laidOut: boolean } {
  const laid = measured.get(e.selector);
  if (laid) return { ...laid, laidOut: true };
  const w = Math.max(MIN_BOX, e.rect.width * width), h = Math.max(MIN_BOX, e.rect.height);
  const cx = (e.rect.x + e.rect.width / 2) * width, cy = e.rect.y + e.rect.height / 2;
  return { x: cx - w / 2, y: cy - h / 2, w, h, laidOut: false };
}

export interface Hit {
  text: string;
  /** The sessions that clicked what is under the point; none for the scroll map. */
  href?: string;
}

/** What lies under the page's point (x, y), and where clicking it leads. */
export function under(
  map: Heatmap,
  scope: { projectId: string; width: number; measured: Measured; now?: Date },
  x: number,
  y: number,
): Hit | undefined {
  if (map.mode === "scroll") {
    const d = map.depths.find((s) => y >= s.depthPx && y < s.depthPx + SCROLL_STEP_PX);
    return d &&
      { text: `${Math.round(d.reachedFraction * 100)} % of sessions saw ${d.depthPx} px` };
  }
  if (map.mode === "element") {
    // the smallest box under the point: a button inside a boxed toolbar is the one meant
    const hits = map.elements.map((e) => ({ e, b: boxOf(e, scope.width, scope.measured) }))
      .filter(({ b }) => x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h)
      .sort((a, b) => a.b.w * a.b.h - b.b.w * b.b.h);
    const e = hits[0]?.e;
    return e && {
      text: `${e.selector}: ${e.count} in ${e.sessions} sessions`,
      href: mapSessionsHref(map, scope.projectId, { clicked: e.selector }, scope.now),
    };
  }
  const c = cellNear(map.cells, Math.floor((x / scope.width) * 100), Math.floor(y / CELL_PX));
  if (!c) return undefined;
  const cell = clickedCellValue({ band: map.viewport, x: c.x, y: c.y, path: map.path });
  const what = map.kind === "click" ? "clicks" : `${map.kind} clicks`;
  return {
    text: `${c.count} ${what} · open their sessions`,
    href: mapSessionsHref(map, scope.projectId, { clickedCell: cell }, scope.now),
  };
}

/** The cell at (cx, cy), else the nearest of its neighbours (a blob spreads past its cell). */
export function cellNear(cells: readonly Cell[], cx: number, cy: number): Cell | undefined {
  let best: Cell | undefined, bestDistance = Infinity;
  for (const c of cells) {
    const dx = Math.abs(c.x - cx), dy = Math.abs(c.y - cy);
    if (dx > 1 || dy > 1) continue;
    if (dx + dy < bestDistance) [best, bestDistance] = [c, dx + dy];
  }
  return best;
}

export function draw(
  g: CanvasRenderingContext2D,
  map: Heatmap,
  { width, height, measured, ink = 1 }: {
    width: number;
    height: number;
    measured: Measured;
    /** Page px per screen px (the page is scaled into its column): labels and lines stay legible. */
    ink?: number;
  },
) {
  g.clearRect(0, 0, width, height);
  if (map.mode === "scroll") {
    for (const d of map.depths) {
      // Red where everyone still is, through amber, to blue where few got.
      const hue = Math.round(240 * (1 - d.reachedFraction));
      g.fillStyle = `hsla(${hue}, 85%, 50%, 0.28)`;
      g.fillRect(0, d.depthPx, width, SCROLL_STEP_PX);
    }
    g.strokeStyle = "#111";
    g.setLineDash([8 * ink, 6 * ink]);
    g.lineWidth = 2 * ink;
    g.beginPath();
    g.moveTo(0, map.averageFoldPx);
    g.lineTo(width, map.averageFoldPx);
    g.stroke();
    g.setLineDash([]);
    label(g, `Average fold · ${map.averageFoldPx} px`, 8 * ink, map.averageFoldPx - 4 * ink, ink);
    return;
  }
  if (map.mode === "element") {
    const max = Math.max(1, ...map.elements.map((e) => e.count));
    for (const e of map.elements) {
      const r = boxOf(e, width, measured);
      g.fillStyle = `rgba(220, 38, 38, ${0.1 + 0.35 * (e.count / max)})`;
      g.fillRect(r.x, r.y, r.w, r.h);
      g.strokeStyle = "#b91c1c";
      g.lineWidth = 2 * ink;
      // an element boxed where its clicks fell, not by its layout, is dashed
      g.setLineDash(r.laidOut ? [] : [6 * ink, 4 * ink]);
      g.strokeRect(r.x, r.y, r.w, r.h);
      g.setLineDash([]);
      label(g, String(e.count), r.x, r.y - 2 * ink, ink);
    }
    return;
  }
  const max = Math.max(1, ...map.cells.map((c) => c.count));
  g.globalCompositeOperation = "multiply";
  for (const c of map.cells) {
    const x = (c.x + 0.5) * width / 100, y = (c.y + 0.5) * CELL_PX;
    const strength = c.count / max;
    const radius = 18 + 22 * strength;
    const blob = g.createRadialGradient(x, y, 0, x, y, radius);
    blob.addColorStop(0, `hsla(${Math.round(60 * (1 - strength))}, 100%, 50%, 0.85)`);
    blob.addColorStop(1, "hsla(60, 100%, 50%, 0)");
    g.fillStyle = blob;
    g.fillRect(x - radius, y - radius, radius * 2, radius * 2);
  }
  g.globalCompositeOperation = "source-over";
}

/** A dark tag with `text` whose baseline is at y, `ink` page px per screen px. */
function label(g: CanvasRenderingContext2D, text: string, x: number, y: number, ink: number) {
  g.font = `600 ${Math.round(12 * ink)}px system-ui, sans-serif`;
  const w = g.measureText(text).width + 8 * ink, h = 17 * ink;
  const top = Math.max(0, y - 13 * ink);
  g.fillStyle = "rgba(17, 17, 17, 0.85)";
  g.fillRect(x, top, w, h);
  g.fillStyle = "#fff";
  g.fillText(text, x + 4 * ink, top + 13 * ink);
}
