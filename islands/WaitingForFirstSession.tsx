// The empty sessions page's live indicator: asks the KPI endpoint every few seconds (only while the
// tab is visible) and, when the first session has arrived, reloads the page into the list.
import { useEffect, useState } from "preact/hooks";
import { apiJson } from "@/utils/api_client.ts";
import { whileVisible } from "@/utils/visible_interval.ts";

interface Props {
  intervalMs: number;
}

export default function WaitingForFirstSession({ intervalMs }: Props) {
  const [error, setError] = useState("");
  const [arrived, setArrived] = useState(false);

  useEffect(() => {
    let busy = false;
    const check = async () => {
      if (busy) return;
      busy = true;
      try {
        const summary = await apiJson<{ totalSessions: number }>("/api/sessions/summary");
        setError("");
        if (summary.totalSessions > 0) {
          setArrived(true);
          location.reload();
        }
      } catch (e) {
        setError(`Could not check for sessions (${(e as Error).message}); retrying.`);
      } finally {
        busy = false;
      }
    };
    return whileVisible(check, intervalMs);
  }, [intervalMs]);

  return (
    <p class="waiting" role="status" aria-live="polite" data-testid="waiting-first-session">
      <span class="pulse" aria-hidden="true" />
      {arrived ? "The first session arrived: loading it…" : "Waiting for the first session…"}
      {error && <span class="error-text">{error}</span>}
    </p>
  );
}
