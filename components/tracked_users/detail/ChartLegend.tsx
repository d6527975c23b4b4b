// The key to the page colours (shared by the timeline and the activity chart), plus the swatches
// a chart adds of its own (other pages, idle).
import type { PageColors } from "@/charts/page_colors.ts";

interface Props {
  colors: PageColors;
  extra?: { label: string; className: string }[];
}

export function ChartLegend({ colors, extra = [] }: Props) {
  return (
    <ul class="chart-legend" aria-label="Legend">
      {[...colors].map(([pathname, color]) => (
        <li key={pathname}>
          <span class="swatch" style={{ background: color }} aria-hidden="true" />
          <span class="truncate" title={pathname}>{pathname}</span>
        </li>
      ))}
      {extra.map(({ label, className }) => (
        <li key={label}>
          <span class={`swatch ${className}`} aria-hidden="true" />
          {label}
        </li>
      ))}
    </ul>
  );
}
