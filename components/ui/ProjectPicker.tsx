// The filter bars' project choice: a menu of checkboxes named `projectIds`, summarised as "All
// projects", the one project's name, or "N projects". Used by /sessions and /insights.
interface Props {
  projects: { id: string; name: string }[];
  selected: string[];
}

export function ProjectPicker({ projects, selected }: Props) {
  const chosen = projects.filter((p) => selected.includes(p.id));
  const label = chosen.length === 0
    ? "All projects"
    : chosen.length === 1
    ? chosen[0].name
    : `${chosen.length} projects`;
  return (
    <div class="field">
      <span id="projects-label">Projects</span>
      <details class="menu">
        <summary aria-describedby="projects-label">{label}</summary>
        <fieldset class="menu-panel checks-column">
          <legend class="visually-hidden">Projects</legend>
          {projects.map((p) => (
            <label key={p.id}>
              <input
                type="checkbox"
                name="projectIds"
                value={p.id}
                checked={selected.includes(p.id)}
              />
              {p.name}
            </label>
          ))}
        </fieldset>
      </details>
    </div>
  );
}
