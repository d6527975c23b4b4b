// The user's timeline: a time axis in the viewer's zone, one bar per session (in lanes when they
// overlap) split into its page periods by colour, idle time hatched (in a session, outside every
// period) or dotted (between sessions). Hovering says what and when; a click on a period opens its
// replay at that moment. Drawn in percentages of the width, so it needs no measuring.
import { useState } from "preact/hooks";
import type { TrackedUserTimeline } from "../../../core/tracked_users/schema.ts";
import { formatDuration } from "../../../utils/format.ts";
import { colorOf, type PageColors } from "./page_colors.ts";
import { timeTicks } from "./time_axis.ts";
import { type Bar, layoutTimeline, type TimelineLayout } from "./timeline_layout.ts";
import { TimelineTable } from "./TimelineTable.tsx";
import { replayHref, shortTime } from "./replay_link.ts";

const LANE = 28, GAP = 8, TOP = 10, AXIS = 30, MAX_LANES = 8;
const MIN_WIDTH = 0.003; // of the window: a 2-second visit in a week still shows

interface Props {
  timeline: TrackedUserTimeline;
  colors: PageColors;
}

interface Tip {
  x: number;
  y: number;
  key: string;
}

const pct = (layout: TimelineLayout, t: number) =>
  ((t - layout.from) / (layout.to - layout.from)) * 100;
const laneY = (lane: number) => TOP + lane * (LANE + GAP);

export function Timeline({ timeline, colors }: Props) {
  const [tip, setTip] = useState<Tip | null>(null);
  const layout = layoutTimeline(timeline, { maxLanes: MAX_LANES, minWidth: MIN_WIDTH });
  const height = laneY(layout.lanes) + AXIS;
  const ticks = timeTicks(layout.from, layout.to);

  const onMove = (event: MouseEvent) => {
    const target = (event.target as Element).closest("[data-tip]");
    if (!target) return setTip(null);
    const box = (event.currentTarget as Element).getBoundingClientRect();
    const key = target.getAttribute("data-tip")!;
    setTip({ x: event.clientX - box.left, y: event.clientY - box.top, key });
  };

  return (
    <div class="timeline">
      <div class="timeline-plot" onMouseMove={onMove} onMouseLeave={() => setTip(null)}>
        <svg
          width="100%"
          height={height}
          role="img"
          aria-label={summaryOf(timeline)}
          data-testid="timeline-svg"
        >
          <defs>
            <pattern
              id="timeline-idle"
              width="6"
              height="6"
              patternUnits="userSpaceOnUse"
              patternTransform="rotate(45)"
            >
              <rect width="6" height="6" class="tl-idle-bg" />
              <line x1="0" y1="0" x2="0" y2="6" class="tl-idle-line" />
            </pattern>
          </defs>
          {ticks.map((tick) => (
            <line
              key={tick.t}
              class={tick.day ? "tl-grid tl-grid-day" : "tl-grid"}
              x1={`${pct(layout, tick.t)}%`}
              x2={`${pct(layout, tick.t)}%`}
              y1={0}
              y2={height - AXIS + 4}
            />
          ))}
          <line class="tl-axis" x1="0" x2="100%" y1={height - AXIS} y2={height - AXIS} />
          {ticks.map((tick) => {
            const x = pct(layout, tick.t);
            const anchor = x < 3 ? "start" : x > 97 ? "end" : "middle";
            return (
              <text key={tick.t} class="tl-tick" x={`${x}%`} y={height - 10} text-anchor={anchor}>
                {tick.label}
              </text>
            );
          })}
          {layout.gaps.map((gap, i) => (
            <g key={`g${i}`} data-tip={`g:${i}`}>
              <rect
                class="tl-hit"
                x={`${pct(layout, gap.start)}%`}
                width={`${pct(layout, gap.end) - pct(layout, gap.start)}%`}
                y={laneY(gap.lane)}
                height={LANE}
              />
              <line
                class="tl-gap"
                x1={`${pct(layout, gap.start)}%`}
                x2={`${pct(layout, gap.end)}%`}
                y1={laneY(gap.lane) + LANE / 2}
                y2={laneY(gap.lane) + LANE / 2}
              />
            </g>
          ))}
          {layout.bars.map((bar, b) => (
            <SessionBar key={bar.session.id} layout={layout} bar={bar} index={b} colors={colors} />
          ))}
        </svg>
        {tip && <TimelineTip tip={tip} layout={layout} />}
      </div>
      <TimelineTable timeline={timeline} />
    </div>
  );
}

function SessionBar(
  { layout, bar, index, colors }: {
    layout: TimelineLayout;
    bar: Bar;
    index: number;
    colors: PageColors;
  },
) {
  const x = pct(layout, bar.start);
  const width = Math.max(pct(layout, bar.end) - x, MIN_WIDTH * 100);
  const y = laneY(bar.lane);
  return (
    <g class="tl-session" data-session={bar.session.id}>
      <rect
        class="tl-idle"
        data-tip={`s:${index}`}
        x={`${x}%`}
        width={`${width}%`}
        y={y}
        height={LANE}
        rx="3"
      />
      {bar.segments.map((segment) => {
        const sx = pct(layout, segment.start);
        const period = bar.session.periods[segment.period];
        return (
          <a
            key={segment.period}
            href={replayHref(bar.session, period)}
            tabIndex={-1}
            data-tip={`p:${index}:${segment.period}`}
          >
            <rect
              class="tl-period"
              x={`${sx}%`}
              width={`${Math.max(pct(layout, segment.end) - sx, MIN_WIDTH * 100)}%`}
              y={y}
              height={LANE}
              fill={colorOf(colors, segment.pathname)}
            />
          </a>
        );
      })}
    </g>
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
  const flip = tip.x > 560;
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
