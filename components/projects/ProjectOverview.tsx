// The start page's table of the active organization's projects: what each has recorded and when it
// last received data (its key's last use), each leading to its sessions (and to its setup page, for the snippet).
import type { ProjectView } from "../../core/projects/schema.ts";
import { formatCount } from "../../utils/format.ts";
import { Time } from "../ui/Time.tsx";

interface Props {
  projects: ProjectView[];
  now: Date;
  /** Whether the viewer may create projects (the empty state's call to action). */
  canCreate: boolean;
}

export function ProjectOverview({ projects, now, canCreate }: Props) {
  if (projects.length === 0) {
    return (
      <section class="card empty" data-testid="projects-empty">
        <h2>No projects yet</h2>
        <p>Sessions are recorded into a project. Create one to get its recording snippet.</p>
        {canCreate
          ? <a class="button button-primary" href="/settings/organization">Create a project</a>
          : <p>Ask an owner of this organization to create one.</p>}
      </section>
    );
  }
  return (
    <section class="card card-flush" aria-labelledby="projects-heading">
      <h2 id="projects-heading" class="card-title">Projects</h2>
      <div class="table-scroll">
        <table class="table" data-testid="project-overview">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col" class="num">Sessions</th>
              <th scope="col">Last activity</th>
              <th scope="col" class="actions">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.id} data-project={p.name}>
                <th scope="row">
                  <a href={`/sessions?projectIds=${encodeURIComponent(p.id)}`}>{p.name}</a>
                </th>
                <td class="num">{formatCount(p.sessionCount)}</td>
                <td>
                  {p.lastUsedAt
                    ? <Time iso={p.lastUsedAt} now={now} />
                    : <span class="muted">{p.sessionCount ? "—" : "No data yet"}</span>}
                </td>
                <td class="actions">
                  <span class="row">
                    <a
                      class="button small"
                      href={`/sessions?projectIds=${encodeURIComponent(p.id)}`}
                      aria-label={`Sessions of ${p.name}`}
                    >
                      Sessions
                    </a>
                    <a
                      class="button small ghost"
                      href={`/projects/${p.id}/setup`}
                      aria-label={`Set up ${p.name}`}
                    >
                      Setup
                    </a>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
