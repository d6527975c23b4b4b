// Why a session was recorded (docs/decisions.md "Capture control"): nothing for a sampled one (the
// usual case), a short badge for one a trigger started, and the replay page's sentence.
import type { RecordingReason } from "@/core/projects/recording_limits.ts";
import { formatDuration } from "@/utils/format.ts";

const TRIGGER_NAMES: Record<Exclude<RecordingReason, "sampled">, string> = {
  error: "an error",
  rage_click: "a rage click",
  dead_click: "a dead click",
  manual: "Playhead.trigger()",
};

/** "⚡ error" for a triggered session, nothing for a sampled one. */
export function ReasonBadge({ reason }: { reason: RecordingReason }) {
  if (reason === "sampled") return null;
  return (
    <span class="badge badge-reason" title={`Recorded because of ${TRIGGER_NAMES[reason]}`}>
      ⚡ {reason === "manual" ? "manual" : reason.replace("_", " ")}
    </span>
  );
}

/** The replay page's sentence: sampled, or which trigger and when, from the session's start. */
export function reasonText(
  reason: RecordingReason,
  triggeredAt: number | null,
  startedAt: string,
): string {
  if (reason === "sampled" || triggeredAt === null) return "Sampled, from its start";
  const at = formatDuration(Math.max(0, triggeredAt - Date.parse(startedAt)));
  return `Triggered by ${TRIGGER_NAMES[reason]} at ${at}`;
}
