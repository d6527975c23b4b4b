// Where the user spent the window: one share bar per page (its colour, its share of the time),
// with the time and visits in numbers beside it.
import type { PageShare } from "@/core/tracked_users/schema.ts";
import { formatCount, formatDuration } from "@/utils/format.ts";
import { colorOf, type PageColors } from "@/charts/page_colors.ts";

const SHOWN = 10;

export function PageShares({ pages, colors }: { pages: PageShare[]; colors: PageColors }) {
  if (pages.length === 0) return <p class="muted">No pages recorded in this window.</p>;
  const rest = pages.slice(SHOWN);
  return (
    <table class="share-table" data-testid="page-shares">
      <caption class="visually-hidden">Time per page, biggest share first</caption>
      <thead class="visually-hidden">
        <tr>
          <th scope="col">Page</th>
          <th scope="col">Share of time</th>
          <th scope="col">Time</th>
          <th scope="col">Visits</th>
        </tr>
      </thead>
      <tbody>
        {pages.slice(0, SHOWN).map((p) => (
          <tr key={p.pathname} data-page={p.pathname}>
            <th scope="row" class="truncate" title={p.pathname}>{p.pathname}</th>
            <td class="share-cell">
              <span class="share-bar" aria-hidden="true">
                <span
                  style={{
                    width: `${Math.max(p.share * 100, 0.5)}%`,
                    background: colorOf(colors, p.pathname),
                  }}
                />
              </span>
              <span class="share-pct">{Math.round(p.share * 100)}%</span>
            </td>
            <td class="num">{formatDuration(p.duration)}</td>
            <td class="num">{formatCount(p.visits)} visit{p.visits === 1 ? "" : "s"}</td>
          </tr>
        ))}
        {rest.length > 0 && (
          <tr>
            <th scope="row" class="muted">{rest.length} more pages</th>
            <td class="share-cell">
              <span class="share-pct">
                {Math.round(rest.reduce((sum, p) => sum + p.share, 0) * 100)}%
              </span>
            </td>
            <td class="num">{formatDuration(rest.reduce((sum, p) => sum + p.duration, 0))}</td>
            <td class="num">{formatCount(rest.reduce((sum, p) => sum + p.visits, 0))} visits</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
