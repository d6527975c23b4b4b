// The open sessions list says when new sessions have arrived: it asks the filtered summary every
// `intervalMs` while the tab is visible (and at once when it comes back) and offers to show them,
// as the empty page's waiting state does, so no one has to reload to see a visit that just ended.
import { useEffect, useState } from "preact/hooks";
import type { SessionSummary } from "@/core/sessions/schema.ts";
import { apiJson } from "@/utils/api_client.ts";
import { SESSIONS_CHANGED } from "@/utils/sessions_changed.ts";
import { whileVisible } from "@/utils/visible_interval.ts";
import { plural } from "@/utils/format.ts";

interface Props {
  /** `/api/sessions/summary?…` with the page's filters. */
  summaryPath: string;
  /** The filtered count the page was rendered with. */
  total: number;
  intervalMs: number;
}

export default function NewSessionsBar({ summaryPath, total, intervalMs }: Props) {
  const [arrived, setArrived] = useState(0);

  useEffect(() => {
    let shown = total;
    let seen = 0;
    let busy = false;
    const read = async () => (await apiJson<SessionSummary>(summaryPath)).totalSessions;
    const check = async () => {
      if (busy) return;
      busy = true;
      try {
        seen = Math.max(0, (await read()) - shown);
        setArrived(seen);
      } catch {
        // the next beat asks again; the list itself is still right
      } finally {
        busy = false;
      }
    };
    // A session deleted on this page is not one that arrived: count from what is there now.
    const resync = async () => {
      try {
        shown = (await read()) - seen;
      } catch {
        // kept as it was
      }
    };
    addEventListener(SESSIONS_CHANGED, resync);
    const stop = whileVisible(check, intervalMs);
    return () => {
      stop();
      removeEventListener(SESSIONS_CHANGED, resync);
    };
  }, [summaryPath, total, intervalMs]);

  return (
    <div class="new-sessions" role="status" aria-live="polite" data-testid="new-sessions">
      {arrived > 0 && (
        <button
          type="button"
          class="new-sessions-button"
          onClick={() => location.reload()}
        >
          {plural(arrived, "new session", "new sessions")} · Show
        </button>
      )}
    </div>
  );
}
