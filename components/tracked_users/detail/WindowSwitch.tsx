// The 6 h / 24 h / 7 d choice as links (they work before hydration too); the charts island turns
// a click into a history entry and a refetch instead of a page load.
import type { Range } from "@/core/tracked_users/timeline.ts";

export const WINDOWS: [Range, string][] = [["6h", "6 hours"], ["24h", "24 hours"], [
  "7d",
  "7 days",
]];

interface Props {
  range: Range;
  href: (range: Range) => string;
  onChoose?: (range: Range, event: MouseEvent) => void;
}

export function WindowSwitch({ range, href, onChoose }: Props) {
  return (
    <nav class="segmented" aria-label="Time window">
      {WINDOWS.map(([value, label]) => (
        <a
          key={value}
          href={href(value)}
          aria-current={value === range ? "true" : undefined}
          onClick={onChoose && ((event: MouseEvent) => onChoose(value, event))}
        >
          Last {label}
        </a>
      ))}
    </nav>
  );
}
