// The timeline as a table (its text alternative, open on demand): each session with its start,
// duration, the pages it went through and links into its replay.
import type { TrackedUserTimeline } from "@/core/tracked_users/schema.ts";
import { formatDuration } from "@/utils/format.ts";
import { periodReplayHref, shortTime } from "@/charts/replay_link.ts";

const PAGES_SHOWN = 6;

export function TimelineTable({ timeline }: { timeline: TrackedUserTimeline }) {
  const sessions = timeline.sessions.toReversed(); // newest first, as the sessions list
  return (
    <details class="chart-data">
      <summary>Show the timeline as a table</summary>
      <div class="table-scroll">
        <table class="table" data-testid="timeline-table">
          <caption class="visually-hidden">Sessions in the window, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col" class="num">Duration</th>
              <th scope="col">Pages</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id} data-session={s.id}>
                <td>
                  <a href={periodReplayHref(s)}>{shortTime(s.startedAt)}</a>
                </td>
                <td class="num">{formatDuration(s.duration)}</td>
                <td>
                  {s.periods.slice(0, PAGES_SHOWN).map((p, i) => (
                    <span key={i}>
                      {i > 0 && " → "}
                      <a href={periodReplayHref(s, p)}>{p.pathname ?? "?"}</a>{" "}
                      <span class="muted">({formatDuration(p.duration)})</span>
                    </span>
                  ))}
                  {s.periods.length > PAGES_SHOWN && (
                    <span class="muted">, {s.periods.length - PAGES_SHOWN} more</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
