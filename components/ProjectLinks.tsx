// The start page's list of the active organization's projects, each linking to its setup page.
import type { ProjectView } from "../core/projects/schema.ts";

export function ProjectLinks({ projects }: { projects: ProjectView[] }) {
  return (
    <section class="card stack" aria-labelledby="projects-heading">
      <h2 id="projects-heading">Projects</h2>
      {projects.length === 0
        ? (
          <p class="muted">
            No projects yet. <a href="/settings/organization">Create one</a> to start recording.
          </p>
        )
        : (
          <ul class="plain-list stack">
            {projects.map((p) => (
              <li key={p.id}>
                <a href={`/projects/${p.id}/setup`}>{p.name}</a>{" "}
                <small class="muted">
                  {p.sessionCount} session{p.sessionCount === 1 ? "" : "s"}
                </small>
              </li>
            ))}
          </ul>
        )}
    </section>
  );
}
