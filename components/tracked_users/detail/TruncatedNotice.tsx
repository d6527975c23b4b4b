// Says when the timeline shows part of the window (the API bounds it: the newest sessions, the
// first periods of each) and where the rest is.
import type { TrackedUserTimeline } from "@/core/tracked_users/schema.ts";
import { formatCount } from "@/utils/format.ts";

export function TruncatedNotice({ timeline }: { timeline: TrackedUserTimeline }) {
  if (!timeline.truncated) return null;
  const shown = timeline.sessions.length, total = timeline.totalSessions;
  return (
    <p class="notice notice-info" data-testid="timeline-truncated">
      {shown < total
        ? `Showing the newest ${formatCount(shown)} of ${
          formatCount(total)
        } sessions in this window.`
        : "Some long sessions show only their first pages."}{" "}
      <a href="#sessions">Every session is in the list below.</a>
    </p>
  );
}
