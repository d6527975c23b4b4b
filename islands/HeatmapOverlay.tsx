// The heat layer over the page's frame on /heatmaps (docs/decisions.md "Heatmaps"): a canvas the
// size of the page in its px, drawn from the map: blobs per grid cell (coordinate), outlined
// elements with their counts (element), or the share of sessions reaching each depth with the
// average fold (scroll). Hovering names what is under the pointer; clicking an element opens the
// sessions that clicked it.
import { useEffect, useRef, useState } from "preact/hooks";
import type { Heatmap } from "@/core/heatmaps/schema.ts";
import { CELL_PX, SCROLL_STEP_PX } from "@/core/heatmaps/schema.ts";
import { sessionsHref } from "@/page_state/sessions.ts";

interface Props {
  map: Heatmap;
  /** The page's width and the height drawn, in its own px. */
  width: number;
  height: number;
}

type Element = Extract<Heatmap, { mode: "element" }>["elements"][number];

function draw(canvas: HTMLCanvasElement, { map, width, height }: Props) {
  const g = canvas.getContext("2d");
  if (!g) return;
  g.clearRect(0, 0, width, height);
  if (map.mode === "scroll") {
    for (const d of map.depths) {
      // Red where everyone still is, through amber, to blue where few got.
      const hue = Math.round(240 * (1 - d.reachedFraction));
      g.fillStyle = `hsla(${hue}, 85%, 50%, 0.28)`;
      g.fillRect(0, d.depthPx, width, SCROLL_STEP_PX);
    }
    g.strokeStyle = "#111";
    g.setLineDash([8, 6]);
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(0, map.averageFoldPx);
    g.lineTo(width, map.averageFoldPx);
    g.stroke();
    g.setLineDash([]);
    label(g, `Average fold · ${map.averageFoldPx} px`, 8, map.averageFoldPx - 8);
    return;
  }
  if (map.mode === "element") {
    const max = Math.max(1, ...map.elements.map((e) => e.count));
    for (const e of map.elements) {
      const r = rectOf(e, width);
      g.fillStyle = `rgba(220, 38, 38, ${0.1 + 0.35 * (e.count / max)})`;
      g.fillRect(r.x, r.y, r.w, r.h);
      g.strokeStyle = "#b91c1c";
      g.lineWidth = 2;
      g.strokeRect(r.x, r.y, r.w, r.h);
      label(g, String(e.count), r.x + 2, r.y - 4);
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

function label(g: CanvasRenderingContext2D, text: string, x: number, y: number) {
  g.font = "600 13px system-ui, sans-serif";
  const w = g.measureText(text).width + 8;
  g.fillStyle = "rgba(17, 17, 17, 0.85)";
  g.fillRect(x, Math.max(0, y - 14), w, 18);
  g.fillStyle = "#fff";
  g.fillText(text, x + 4, Math.max(13, y));
}

/** The box of an element's clicks, at least MIN_BOX px each way around its centre. */
const MIN_BOX = 28;
function rectOf(e: Element, width: number) {
  const w = Math.max(MIN_BOX, e.rect.width * width), h = Math.max(MIN_BOX, e.rect.height);
  const cx = (e.rect.x + e.rect.width / 2) * width, cy = e.rect.y + e.rect.height / 2;
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

/** What lies under the page's point (x, y), as a line to show, and an element's selector. */
function under(map: Heatmap, width: number, x: number, y: number) {
  if (map.mode === "scroll") {
    const d = map.depths.find((s) => y >= s.depthPx && y < s.depthPx + SCROLL_STEP_PX);
    return d &&
      { text: `${Math.round(d.reachedFraction * 100)} % of sessions saw ${d.depthPx} px` };
  }
  if (map.mode === "element") {
    const e = map.elements.find((e) => {
      const r = rectOf(e, width);
      return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
    });
    return e &&
      { text: `${e.selector}: ${e.count} in ${e.sessions} sessions`, selector: e.selector };
  }
  const cx = Math.floor((x / width) * 100), cy = Math.floor(y / CELL_PX);
  const c = map.cells.find((c) => Math.abs(c.x - cx) <= 1 && Math.abs(c.y - cy) <= 1);
  return c && { text: `${c.count} ${map.kind === "click" ? "clicks" : `${map.kind} clicks`}` };
}

export default function HeatmapOverlay(props: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [tip, setTip] = useState<{ text: string; x: number; y: number } | null>(null);
  useEffect(() => {
    if (canvas.current) draw(canvas.current, props);
  }, [props.map, props.width, props.height]);
  const point = (event: MouseEvent) => {
    const box = (event.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const scale = props.width / box.width;
    return {
      x: (event.clientX - box.left) * scale,
      y: (event.clientY - box.top) * scale,
      offsetX: event.clientX - box.left,
      offsetY: event.clientY - box.top,
    };
  };
  return (
    <div class="heatmap-overlay">
      <canvas
        ref={canvas}
        width={props.width}
        height={props.height}
        aria-label="Heat layer"
        onMouseMove={(event) => {
          const p = point(event);
          const found = under(props.map, props.width, p.x, p.y);
          setTip(found ? { text: found.text, x: p.offsetX, y: p.offsetY } : null);
        }}
        onMouseLeave={() => setTip(null)}
        onClick={(event) => {
          const p = point(event);
          const found = under(props.map, props.width, p.x, p.y);
          if (found && "selector" in found && found.selector) {
            location.href = sessionsHref({ clicked: found.selector });
          }
        }}
      />
      {tip && (
        <div class="heatmap-tip" style={`left:${tip.x + 12}px;top:${tip.y + 12}px`}>
          {tip.text}
        </div>
      )}
    </div>
  );
}
