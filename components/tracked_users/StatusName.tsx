// How the users list names a status, in its rows and its filter.
import type { TrackedUserStatus } from "@/core/tracked_users/status.ts";

const NAMES: Record<TrackedUserStatus, string> = {
  ONLINE: "Online",
  ACTIVE_24H: "Active 24 h",
  IDLE_7D: "Idle 7 d",
  DORMANT: "Dormant",
};

export function StatusName({ status }: { status: TrackedUserStatus }) {
  return <>{NAMES[status]}</>;
}
