// The page under its heat layer on /heatmaps: the server's frame of the page (a sandboxed iframe
// without scripts, as the replay's, components/replay/ServerFrame.tsx) laid out at the recorded
// width and the height the map reaches, scaled to the column by CSS, with the overlay island's
// canvas on top at the same size in the page's own px.
import type { Heatmap } from "@/core/heatmaps/schema.ts";
import { CELL_PX } from "@/core/heatmaps/schema.ts";
import HeatmapOverlay from "@/islands/HeatmapOverlay.tsx";

/** The column's width the page is scaled into (px). */
const STAGE_PX = 640;
/** The band's typical width, when no frame says the recorded one. */
const BAND_PX = { narrow: 390, medium: 1024, wide: 1440 } as const;
/** The page is drawn this far down at most. */
const MAX_HEIGHT_PX = 6000;

/** How far down the map reaches: its deepest cell, element or depth, and a screen at least. */
function reach(map: Heatmap, screen: number): number {
  const deepest = map.mode === "scroll"
    ? Math.max(0, ...map.depths.map((d) => d.depthPx + 100))
    : map.mode === "element"
    ? Math.max(0, ...map.elements.map((e) => e.rect.y + e.rect.height))
    : Math.max(0, ...map.cells.map((c) => (c.y + 1) * CELL_PX));
  return Math.min(MAX_HEIGHT_PX, Math.max(screen, deepest + 200));
}

export function HeatmapStage(
  { map, frame, projectId }: {
    map: Heatmap;
    projectId: string;
    frame: { source: string; width: number; height: number } | null;
  },
) {
  const width = frame?.width || BAND_PX[map.viewport];
  const height = reach(map, frame?.height || 800);
  const scale = Math.min(1, STAGE_PX / width);
  const markup = frame &&
    `<iframe sandbox="" tabindex="-1" title="The page" ${frame.source}></iframe>`;
  return (
    <div
      class="heatmap-stage"
      style={`--page-width:${width}px;--page-height:${height}px;--scale:${scale}`}
    >
      <div
        class="heatmap-page"
        aria-hidden="true"
        dangerouslySetInnerHTML={{ __html: markup || "" }}
      />
      {!frame && <p class="heatmap-no-frame muted">No frame of this page could be drawn.</p>}
      <HeatmapOverlay map={map} projectId={projectId} width={width} height={height} />
    </div>
  );
}
