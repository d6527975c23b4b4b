// What a chart shows before its data: a placeholder of its size while loading, or the API's error
// with a retry (never a blank).
import type { Loaded } from "@/hooks/use_api.ts";

interface Props {
  loaded: Loaded<unknown>;
  /** "the timeline", "the activity". */
  what: string;
  onRetry: () => void;
  height: string;
}

export function ChartStatus({ loaded, what, onRetry, height }: Props) {
  if (loaded.state === "ready") return null;
  if (loaded.state === "loading") {
    return (
      <div class="chart-placeholder" style={{ minHeight: height }} role="status">
        <span class="loading">Loading {what}…</span>
      </div>
    );
  }
  return (
    <div class="chart-placeholder chart-error" style={{ minHeight: height }} role="alert">
      <span class="error-text">Could not load {what}: {loaded.message}</span>
      <button type="button" class="small" onClick={onRetry}>Try again</button>
    </div>
  );
}
