// The start page's table of the active organization's projects: what each has recorded and when it
// last received data (its key's last use), each leading to its sessions (and to its setup page, for the snippet).
import { projectHref } from "@/page_state/projects.ts";
import { sessionsHref } from "@/page_state/sessions.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import { formatCount } from "@/utils/format.ts";
import { Time } from "@/components/ui/Time.tsx";
import { ActionsHeader } from "@/components/ui/ActionsHeader.tsx";
import { NoProjects } from "./NoProjects.tsx";

interface Props {
  projects: ProjectView[];
  now: Date;
  /** Whether the viewer may create projects (the empty state's call to action). */
  canCreate: boolean;
}

export function ProjectOverview({ projects, now, canCreate }: Props) {
  if (projects.length === 0) {
    return <NoProjects canCreate={canCreate} testId="projects-empty" />;
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
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.id} data-project={p.name}>
                <th scope="row">
                  <a href={sessionsHref({ projectIds: [p.id] })}>{p.name}</a>
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
                      href={sessionsHref({ projectIds: [p.id] })}
                      aria-label={`Sessions of ${p.name}`}
                    >
                      Sessions
                    </a>
                    <a
                      class="button small ghost"
                      href={projectHref(p.id, "setup")}
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
