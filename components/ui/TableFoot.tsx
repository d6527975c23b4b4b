// The foot of a cursor-paged table: how many rows are shown (or the error), and "Load more" — a
// plain link to the next page until the island takes it over.
import type { ComponentChildren } from "preact";

interface Props {
  count: number;
  /** Singular and plural, e.g. ["session", "sessions"]. */
  noun: [string, string];
  hasMore: boolean;
  error: string;
  loading: boolean;
  nextHref: string | null;
  onLoadMore: (event: Event) => void;
  /** Shown after the count, e.g. a live-update problem. */
  children?: ComponentChildren;
}

export function TableFoot(
  { count, noun, hasMore, error, loading, nextHref, onLoadMore, children }: Props,
) {
  return (
    <div class="table-foot">
      <span aria-live="polite">
        {error ? <span class="error-text" role="alert">{error}</span> : (
          `Showing ${count} ${count === 1 ? noun[0] : noun[1]}` +
          (hasMore ? "" : " · end of the list")
        )}
        {children}
      </span>
      {hasMore && (
        <a
          class="button"
          href={nextHref ?? "#"}
          onClick={onLoadMore}
          aria-disabled={loading ? "true" : undefined}
        >
          {loading ? "Loading…" : "Load more"}
        </a>
      )}
    </div>
  );
}
