// The heatmap's ranked elements beside the page: clicks (of the kind shown), sessions, rage and dead
// clicks; each row opens the sessions that clicked the element (`clicked=` on /sessions).
import type { Heatmap } from "@/core/heatmaps/schema.ts";
import { mapSessionsHref } from "@/page_state/heatmaps.ts";
import { formatCount } from "@/utils/format.ts";

type Element = Extract<Heatmap, { mode: "element" }>["elements"][number];

export function TopElements(
  { rows, kind, projectId, from }: {
    rows: Element[];
    kind: Heatmap["kind"];
    projectId: string;
    /** The map's first day: the sessions each row opens start in a range holding it. */
    from: string;
  },
) {
  if (rows.length === 0) return <p class="muted">No clicks of this kind on this page.</p>;
  return (
    <div class="table-scroll">
      <table class="table" data-testid="heatmap-elements">
        <thead>
          <tr>
            <th scope="col">Element</th>
            <th scope="col" class="num">
              {kind === "rage" ? "Rage bursts" : kind === "dead" ? "Dead clicks" : "Clicks"}
            </th>
            <th scope="col" class="num">Sessions</th>
            <th scope="col" class="num">Rage</th>
            <th scope="col" class="num">Dead</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, 20).map((r) => (
            <tr key={r.selector}>
              <td class="truncate" title={r.selector}>
                <a href={mapSessionsHref({ from }, projectId, { clicked: r.selector })}>
                  <code>{r.selector}</code>
                </a>
              </td>
              <td class="num">{formatCount(r.count)}</td>
              <td class="num">{formatCount(r.sessions)}</td>
              <td class="num">{formatCount(r.rageCount)}</td>
              <td class="num">{formatCount(r.deadCount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
