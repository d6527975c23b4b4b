// The users page's KPI cards, kept current: the summary endpoint again every `refreshMs` while the
// tab is visible, so "Online now" moves without a reload. A failed refresh keeps the last numbers
// and says so.
import { useEffect, useState } from "preact/hooks";
import type { TrackedUserSummary } from "@/core/tracked_users/schema.ts";
import { Kpis } from "@/components/ui/Kpis.tsx";
import { apiJson } from "@/utils/api_client.ts";
import { formatCount } from "@/utils/format.ts";
import { whileVisible } from "@/utils/visible_interval.ts";

interface Props {
  summary: TrackedUserSummary;
  refreshMs: number;
}

export default function TrackedUsersKpis(props: Props) {
  const [summary, setSummary] = useState(props.summary);
  const [error, setError] = useState("");

  useEffect(() => {
    let busy = false;
    const refresh = async () => {
      if (busy) return;
      busy = true;
      try {
        setSummary(await apiJson<TrackedUserSummary>("/api/tracked-users/summary"));
        setError("");
      } catch (e) {
        setError(`Could not refresh these numbers: ${(e as Error).message}. Retrying.`);
      } finally {
        busy = false;
      }
    };
    return whileVisible(refresh, props.refreshMs);
  }, [props.refreshMs]);

  return (
    <div class="stack-tight">
      <Kpis
        label="Users at a glance"
        items={[
          { label: "Tracked users", value: formatCount(summary.total), testId: "kpi-total" },
          { label: "Online now", value: formatCount(summary.onlineNow), testId: "kpi-online" },
          { label: "Active in 24 h", value: formatCount(summary.active24h), testId: "kpi-24h" },
          { label: "New this week", value: formatCount(summary.newThisWeek), testId: "kpi-new" },
        ]}
      />
      {error && <p class="error-text" role="alert">{error}</p>}
    </div>
  );
}
