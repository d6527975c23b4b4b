// The user's timeline: a time axis in the viewer's zone, one bar per session (in lanes when they
// overlap) split into its page periods by colour, idle time hatched (in a session, outside every
// period) or dotted (between sessions). Hovering says what and when; a click on a period opens its
// replay at that moment. Drawn in percentages of the width, so it needs no measuring.
import { useMemo, useState } from "preact/hooks";
import type { TrackedUserTimeline } from "@/core/tracked_users/schema.ts";
import { formatDuration } from "@/utils/format.ts";
import type { PageColors } from "@/charts/page_colors.ts";
import { layoutTimeline, type TimelineLayout } from "@/charts/timeline_layout.ts";
import { MIN_WIDTH, TimelineSvg } from "./TimelineSvg.tsx";
import { TimelineTable } from "./TimelineTable.tsx";
import { shortTime } from "@/charts/replay_link.ts";

const MAX_LANES = 8;
const TIP_WIDTH = 260;

interface Props {
  timeline: TrackedUserTimeline;
  colors: PageColors;
}

interface Tip {
  x: number;
  y: number;
  /** The plot's width, to open the card leftwards near the right edge. */
  width: number;
  key: string;
}

export function Timeline({ timeline, colors }: Props) {
  const [tip, setTip] = useState<Tip | null>(null);
  const layout = useMemo(
    () => layoutTimeline(timeline, { maxLanes: MAX_LANES, minWidth: MIN_WIDTH }),
    [timeline],
  );

  const onMove = (event: MouseEvent) => {
    const target = (event.target as Element).closest("[data-tip]");
    if (!target) return setTip(null);
    const box = (event.currentTarget as Element).getBoundingClientRect();
    const key = target.getAttribute("data-tip")!;
    setTip({ x: event.clientX - box.left, y: event.clientY - box.top, width: box.width, key });
  };

  return (
    <div class="timeline">
      <div class="timeline-plot" onMouseMove={onMove} onMouseLeave={() => setTip(null)}>
        <TimelineSvg layout={layout} colors={colors} label={summaryOf(timeline)} />
        {tip && <TimelineTip tip={tip} layout={layout} />}
      </div>
      <TimelineTable timeline={timeline} />
    </div>
  );
}

function TimelineTip({ tip, layout }: { tip: Tip; layout: TimelineLayout }) {
  const [kind, a, b] = tip.key.split(":");
  let lines: [string, string][];
  if (kind === "g") {
    const gap = layout.gaps[Number(a)];
    lines = [["Idle", formatDuration(gap.end - gap.start)], ["Between", "two sessions"]];
  } else {
    const session = layout.bars[Number(a)].session;
    const period = kind === "p" ? session.periods[Number(b)] : null;
    lines = period
      ? [
        [period.pathname ?? "Unknown page", period.url ?? ""],
        ["Started", shortTime(period.startedAt)],
        ["Stayed", formatDuration(period.duration)],
        ["", "Click to replay from here"],
      ]
      : [
        ["Session", shortTime(session.startedAt)],
        ["Lasted", formatDuration(session.duration)],
        ["", "No page recorded for this part"],
      ];
  }
  const flip = tip.x + TIP_WIDTH > tip.width;
  return (
    <div
      class="chart-tip"
      role="tooltip"
      style={{
        top: `${tip.y + 14}px`,
        left: flip ? undefined : `${tip.x + 12}px`,
        right: flip ? `calc(100% - ${tip.x - 12}px)` : undefined,
      }}
    >
      {lines.map(([label, value], i) => (
        <div key={i} class={i === 0 ? "chart-tip-head" : undefined}>
          {label && <strong>{label}</strong>} <span>{value}</span>
        </div>
      ))}
    </div>
  );
}

function summaryOf(timeline: TrackedUserTimeline): string {
  const n = timeline.sessions.length;
  const pages = timeline.pages.length;
  return `Timeline: ${n} session${n === 1 ? "" : "s"} over ${pages} page${pages === 1 ? "" : "s"}` +
    ` between ${shortTime(timeline.from)} and ${
      shortTime(timeline.to)
    }; the table below lists them.`;
}
