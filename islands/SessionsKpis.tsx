// The sessions page's KPI cards, kept true: after a session is deleted on the page (the
// SESSIONS_CHANGED event of SessionTable), the filtered summary is read again.
import { useEffect, useState } from "preact/hooks";
import type { SessionSummary } from "@/core/sessions/schema.ts";
import { Kpis } from "@/components/ui/Kpis.tsx";
import { apiJson } from "@/utils/api_client.ts";
import { formatCount, formatDuration } from "@/utils/format.ts";
import { SESSIONS_CHANGED } from "@/utils/sessions_changed.ts";

interface Props {
  summary: SessionSummary;
  /** `/api/sessions/summary?…` with the page's filters. */
  summaryPath: string;
}

export default function SessionsKpis(props: Props) {
  const [summary, setSummary] = useState(props.summary);
  const [error, setError] = useState("");

  useEffect(() => {
    const refresh = async () => {
      try {
        setSummary(await apiJson<SessionSummary>(props.summaryPath));
        setError("");
      } catch (e) {
        setError(`Could not refresh these numbers: ${(e as Error).message}`);
      }
    };
    addEventListener(SESSIONS_CHANGED, refresh);
    return () => removeEventListener(SESSIONS_CHANGED, refresh);
  }, [props.summaryPath]);

  return (
    <div class="stack-tight">
      <Kpis
        label="Sessions at a glance"
        items={[
          { label: "Sessions", value: formatCount(summary.totalSessions), testId: "kpi-total" },
          { label: "Total duration", value: formatDuration(summary.totalDuration) },
          { label: "Average duration", value: formatDuration(summary.avgDuration) },
          { label: "Active today", value: formatCount(summary.activeToday) },
        ]}
      />
      {error && <p class="error-text" role="alert">{error}</p>}
    </div>
  );
}
