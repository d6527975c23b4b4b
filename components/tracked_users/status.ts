// How the users list names a status, and a row's status once the heartbeat has spoken.
import { statusAt, type TrackedUserStatus } from "../../core/tracked_users/status.ts";

export const STATUS_LABELS: Record<TrackedUserStatus, string> = {
  ONLINE: "Online",
  ACTIVE_24H: "Active 24 h",
  IDLE_7D: "Idle 7 d",
  DORMANT: "Dormant",
};

/** A heartbeat's answer for one user. */
export interface Beat {
  online: boolean;
  lastEventAt: string | null;
}

/** The status to show: the heartbeat's when there is one (online is its call), else the list's. */
export function liveStatus(
  listed: TrackedUserStatus,
  beat: Beat | undefined,
  now: Date,
): TrackedUserStatus {
  if (!beat) return listed;
  if (beat.online) return "ONLINE";
  const status = statusAt(beat.lastEventAt ? new Date(beat.lastEventAt) : null, now);
  return status === "ONLINE" ? "ACTIVE_24H" : status;
}
