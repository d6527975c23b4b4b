// Live database health: polls the health endpoint and shows whether the database answers.
import { useEffect, useState } from "preact/hooks";
import { apiJson } from "@/utils/api_client.ts";

interface Props {
  endpoint: string;
  intervalMs: number;
}

type Health = "checking" | "ok" | "unavailable";

export default function HealthStatus({ endpoint, intervalMs }: Props) {
  const [health, setHealth] = useState<Health>("checking");
  const [checkedAt, setCheckedAt] = useState<string | null>(null);

  async function check() {
    setHealth("checking");
    try {
      const body = await apiJson<{ database?: string }>(endpoint);
      setHealth(body.database === "ok" ? "ok" : "unavailable");
    } catch {
      setHealth("unavailable");
    }
    setCheckedAt(new Date().toLocaleTimeString());
  }

  useEffect(() => {
    check();
    const timer = setInterval(check, intervalMs);
    return () => clearInterval(timer);
  }, [endpoint, intervalMs]);

  return (
    <p class="health" data-health={health} aria-live="polite">
      <span class="health-dot" aria-hidden="true" />
      database: {health}
      {checkedAt && <small>checked {checkedAt}</small>}
      <button type="button" onClick={check} disabled={health === "checking"}>
        Check now
      </button>
    </p>
  );
}
