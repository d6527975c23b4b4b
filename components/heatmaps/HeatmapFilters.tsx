// The heatmap's choices on /heatmaps: project, page (the project's most viewed), kind, viewport
// band, mode and the range of UTC days; a plain GET form, so it works without JavaScript.
import type { HeatmapPageInput, HeatmapPages } from "@/core/heatmaps/schema.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import { heatmapsHref } from "@/page_state/heatmaps.ts";

const KINDS = [["click", "Clicks"], ["rage", "Rage clicks"], ["dead", "Dead clicks"], [
  "scroll",
  "Scroll depth",
]] as const;
const BANDS = [
  ["narrow", "Narrow (< 768 px)"],
  ["medium", "Medium (768–1,279 px)"],
  ["wide", "Wide (≥ 1,280 px)"],
] as const;
const MODES = [["coordinate", "Where (grid)"], ["element", "By element"]] as const;

export function HeatmapFilters(
  { input, projects, pages }: {
    input: HeatmapPageInput;
    projects: ProjectView[];
    pages: HeatmapPages["pages"];
  },
) {
  return (
    <form method="get" action={heatmapsHref()} class="filters" aria-label="Heatmap choices">
      <label class="field">
        <span>Project</span>
        <select name="projectId">
          {projects.map((p) => (
            <option key={p.id} value={p.id} selected={p.id === input.projectId}>{p.name}</option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>Page</span>
        <select name="path">
          {pages.map((p) => (
            <option key={p.path} value={p.path} selected={p.path === input.path}>
              {p.path} ({p.views} views)
            </option>
          ))}
        </select>
      </label>
      <Choice name="kind" label="Show" options={KINDS} selected={input.kind} />
      <Choice name="viewport" label="Viewport" options={BANDS} selected={input.viewport} />
      {input.kind !== "scroll" && (
        <Choice name="mode" label="Mode" options={MODES} selected={input.mode ?? "coordinate"} />
      )}
      <label class="field">
        <span>From</span>
        <input type="date" name="from" value={input.from} />
      </label>
      <label class="field">
        <span>To</span>
        <input type="date" name="to" value={input.to} />
      </label>
      <div class="row">
        <button type="submit">Apply</button>
      </div>
    </form>
  );
}

function Choice(
  { name, label, options, selected }: {
    name: string;
    label: string;
    options: readonly (readonly [string, string])[];
    selected: string;
  },
) {
  return (
    <label class="field">
      <span>{label}</span>
      <select name={name}>
        {options.map(([value, text]) => (
          <option key={value} value={value} selected={value === selected}>{text}</option>
        ))}
      </select>
    </label>
  );
}
