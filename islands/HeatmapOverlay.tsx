// The heat layer over the page's frame on /heatmaps (docs/decisions.md "Heatmaps"): a canvas the
// size of the page in its px, drawn from the map (charts/heatmap_layer.ts): blobs per grid cell,
// elements boxed where the page's frame lays them out (measured once hydrated,
// components/heatmaps/element_probe.ts; where their clicks fell until then, or when the frame has
// no such element), or the share of sessions reaching each depth with the average fold. Hovering
// names what is under the pointer with its counts; clicking a cell or an element opens the
// sessions that clicked there.
import { useEffect, useRef, useState } from "preact/hooks";
import type { Heatmap } from "@/core/heatmaps/schema.ts";
import { draw, type Measured, under } from "@/charts/heatmap_layer.ts";
import { probeElements } from "@/components/heatmaps/element_probe.ts";

interface Props {
  map: Heatmap;
  projectId: string;
  /** The page's width and the height drawn, in its own px. */
  width: number;
  height: number;
}

const NONE: Measured = new Map();

/** The measured boxes as the page's tests read them: selector → [x, y, w, h], rounded. */
const laidOutJson = (measured: Measured) =>
  JSON.stringify(Object.fromEntries(
    [...measured].map(([s, b]) => [s, [b.x, b.y, b.w, b.h].map(Math.round)]),
  ));

export default function HeatmapOverlay(props: Props) {
  const { map, width, height } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const [tip, setTip] = useState<{ text: string; x: number; y: number } | null>(null);
  const [measured, setMeasured] = useState<Measured>(NONE);
  const [boxes, setBoxes] = useState<"clicks" | "layout">("clicks");
  useEffect(() => {
    const g = canvas.current?.getContext("2d");
    const shown = canvas.current?.getBoundingClientRect().width;
    if (!g) return;
    draw(g, map, { width, height, measured, ink: shown ? Math.max(1, width / shown) : 1 });
    // when the page became usable, for bench/heatmaps/ (the first drawing, the measured boxes)
    performance.mark(measured === NONE ? "heatmap:drawn" : "heatmap:laid-out");
  }, [map, width, height, measured]);
  useEffect(() => {
    const frame = canvas.current?.closest(".heatmap-stage")?.querySelector("iframe");
    if (map.mode !== "element" || !frame) return;
    let live = true;
    probeElements(frame, map.elements.map((e) => e.selector), width, height).then((found) => {
      if (!live) return;
      setMeasured(found);
      setBoxes("layout");
    });
    return () => void (live = false);
  }, [map, width, height]);
  const point = (event: MouseEvent) => {
    const box = (event.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const scale = width / box.width;
    const scope = { projectId: props.projectId, width, measured };
    return {
      hit: under(map, scope, (event.clientX - box.left) * scale, (event.clientY - box.top) * scale),
      x: event.clientX - box.left,
      y: event.clientY - box.top,
    };
  };
  return (
    <div class="heatmap-overlay">
      <canvas
        ref={canvas}
        width={width}
        height={height}
        aria-label="Heat layer"
        data-boxes={map.mode === "element" ? boxes : undefined}
        data-laid-out={map.mode === "element" ? laidOutJson(measured) : undefined}
        onMouseMove={(event) => {
          const { hit, x, y } = point(event);
          setTip(hit ? { text: hit.text, x, y } : null);
          event.currentTarget.style.cursor = hit?.href ? "pointer" : "crosshair";
        }}
        onMouseLeave={() => setTip(null)}
        onClick={(event) => {
          const { hit } = point(event);
          if (hit?.href) location.href = hit.href;
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
