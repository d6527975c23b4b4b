// The timeline's picture: ticks and grid, idle gaps, and one bar per session split into its
// periods (each a link into the replay). A class so the hover card's every move, which re-renders
// the Timeline around it, skips this (up to 200 sessions × 50 periods) until the data changes.
import { Component } from "preact";
import { colorOf, type PageColors } from "@/charts/page_colors.ts";
import { periodReplayHref } from "@/charts/replay_link.ts";
import { timeTicks } from "@/charts/time_axis.ts";
import type { Bar, TimelineLayout } from "@/charts/timeline_layout.ts";

export const LANE = 28, GAP = 8, TOP = 10, AXIS = 30;
export const MIN_WIDTH = 0.003; // of the window: a 2-second visit in a week still shows

interface Props {
  layout: TimelineLayout;
  colors: PageColors;
  label: string;
}

const pct = (layout: TimelineLayout, t: number) =>
  ((t - layout.from) / (layout.to - layout.from)) * 100;
const laneY = (lane: number) => TOP + lane * (LANE + GAP);

export class TimelineSvg extends Component<Props> {
  override shouldComponentUpdate(next: Props) {
    return next.layout !== this.props.layout || next.colors !== this.props.colors;
  }

  override render() {
    const { layout, colors, label } = this.props;
    const height = laneY(layout.lanes) + AXIS;
    const ticks = timeTicks(layout.from, layout.to);
    return (
      <svg
        width="100%"
        height={height}
        role="img"
        aria-label={label}
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
    );
  }
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
            href={periodReplayHref(bar.session, period)}
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
