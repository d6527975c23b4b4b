// A session's signals as small coloured badges (errors, rage clicks, dead clicks, failed
// requests), and its client
// as short names: never the raw user agent.
import type { SessionListItem } from "@/core/sessions/schema.ts";

type Counts =
  & Pick<SessionListItem, "errorCount" | "rageClickCount" | "deadClickCount">
  & Partial<Pick<SessionListItem, "networkErrorCount">>;

export function SignalBadges({ session: s }: { session: Counts }) {
  const badges = [
    [s.errorCount, "badge-danger", "error", "errors"],
    [s.rageClickCount, "badge-warn", "rage click", "rage clicks"],
    [s.deadClickCount, "badge-dead", "dead click", "dead clicks"],
    [s.networkErrorCount ?? 0, "badge-network", "failed request", "failed requests"],
  ] as const;
  const shown = badges.filter(([n]) => n > 0);
  if (shown.length === 0) return <span class="muted">—</span>;
  return (
    <span class="signal-badges">
      {shown.map(([n, tone, one, many]) => (
        <span key={one} class={`badge ${tone}`} title={`${n} ${n === 1 ? one : many}`}>
          {n} {n === 1 ? one : many}
        </span>
      ))}
    </span>
  );
}

const DEVICE_LABEL: Record<string, string> = {
  desktop: "Desktop",
  mobile: "Mobile",
  tablet: "Tablet",
};

/** "Chrome · Mobile", or a dash when the user agent told nothing. */
export function ClientLabel(
  { session: s }: { session: Pick<SessionListItem, "browser" | "os" | "device"> },
) {
  const parts = [s.browser, s.device ? DEVICE_LABEL[s.device] : null].filter(Boolean);
  if (parts.length === 0) return <span class="muted">—</span>;
  return (
    <span title={[s.browser, s.os, s.device].filter(Boolean).join(", ")}>{parts.join(" · ")}</span>
  );
}
