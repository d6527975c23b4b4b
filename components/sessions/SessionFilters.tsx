// The sessions list's controls as a GET form: every choice lands in the URL query, so a filtered
// view can be shared and the back button works. autocomplete="off" keeps the browser from restoring
// what was typed last on a back navigation: the controls show the URL's query, nothing else.
import type { ProjectView } from "../../core/projects/schema.ts";
import type { SessionsQuery } from "./query.ts";
import { OrderAndApply } from "../ui/OrderAndApply.tsx";

const RANGES = [["all", "All time"], ["today", "Today"], ["7d", "Last 7 days"], [
  "30d",
  "Last 30 days",
]] as const;

export function SessionFilters(
  { query, projects }: { query: SessionsQuery; projects: ProjectView[] },
) {
  const chosen = projects.filter((p) => query.projectIds.includes(p.id));
  const projectLabel = chosen.length === 0
    ? "All projects"
    : chosen.length === 1
    ? chosen[0].name
    : `${chosen.length} projects`;
  return (
    <form
      method="get"
      action="/sessions"
      class="filters"
      aria-label="Filter sessions"
      autocomplete="off"
    >
      <label class="field field-grow">
        <span>Search</span>
        <input
          type="search"
          name="search"
          value={query.search}
          placeholder="Session id (externalId)"
          maxLength={200}
        />
      </label>
      <div class="field">
        <span id="projects-label">Projects</span>
        <details class="menu">
          <summary aria-describedby="projects-label">{projectLabel}</summary>
          <fieldset class="menu-panel checks-column">
            <legend class="visually-hidden">Projects</legend>
            {projects.map((p) => (
              <label key={p.id}>
                <input
                  type="checkbox"
                  name="projectIds"
                  value={p.id}
                  checked={query.projectIds.includes(p.id)}
                />
                {p.name}
              </label>
            ))}
          </fieldset>
        </details>
      </div>
      <label class="field">
        <span>Range</span>
        <select name="range">
          {RANGES.map(([value, label]) => (
            <option key={value} value={value} selected={query.range === value}>{label}</option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>Sort by</span>
        <select name="sort">
          <option value="date" selected={query.sort === "date"}>Start time</option>
          <option value="duration" selected={query.sort === "duration"}>Duration</option>
        </select>
      </label>
      <OrderAndApply sortDir={query.sortDir} resetHref="/sessions" />
    </form>
  );
}
