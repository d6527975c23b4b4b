// The active organization's projects with the controls the viewer's role allows: ADMIN renames
// and sets the default display-name trait key; OWNER sees and copies the key, regenerates it
// (after a confirmation step) and deletes.
import { projectHref } from "@/page_state/projects.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import { DELETE_PROJECT_PHRASE } from "@/core/projects/projects.ts";
import { atLeast, type Role } from "@/core/permissions.ts";
import ProjectKey from "@/islands/ProjectKey.tsx";
import { ConfirmForm } from "@/components/ui/ConfirmForm.tsx";
import { RowForm } from "@/components/ui/RowForm.tsx";

interface Props {
  projects: ProjectView[];
  role: Role;
}

export function ProjectList({ projects, role }: Props) {
  if (projects.length === 0) return <p class="muted">No projects yet.</p>;
  const owner = role === "OWNER";
  const admin = atLeast(role, "ADMIN");
  return (
    <ul class="plain-list stack">
      {projects.map((p) => (
        <li key={p.id} class="project stack" data-project={p.name}>
          <h3>{p.name}</h3>
          <p class="row">
            {owner
              ? <ProjectKey projectId={p.id} maskedKey={p.maskedKey} />
              : <code>{p.maskedKey}</code>}
          </p>
          <p class="muted">
            {p.sessionCount} session{p.sessionCount === 1 ? "" : "s"} ·{" "}
            {p.lastUsedAt ? `last data ${p.lastUsedAt.slice(0, 10)}` : "no data yet"} ·{" "}
            <a href={projectHref(p.id, "setup")}>Set up recording</a> ·{" "}
            <a href={projectHref(p.id, "settings")}>Recording settings</a>
          </p>
          {admin && (
            <RowForm item={{ projectId: p.id }}>
              <label for={`project-name-${p.id}`}>Name</label>
              <input
                id={`project-name-${p.id}`}
                name="name"
                value={p.name}
                required
                maxLength={80}
              />
              <button type="submit" name="intent" value="rename-project">Rename</button>
            </RowForm>
          )}
          {admin && (
            <RowForm item={{ projectId: p.id }}>
              <label for={`project-trait-${p.id}`}>Name users by trait</label>
              <input
                id={`project-trait-${p.id}`}
                name="traitKey"
                value={p.displayNameTraitKey ?? ""}
                maxLength={60}
                placeholder="e.g. name or email"
                aria-describedby={`project-trait-hint-${p.id}`}
              />
              <button type="submit" name="intent" value="set-trait-key">Save</button>
              <span id={`project-trait-hint-${p.id}`} class="muted small">
                The identify() trait that names a tracked user who has no name of their own; empty
                shows their external id.
              </span>
            </RowForm>
          )}
          {owner && (
            <details>
              <summary>Regenerate key</summary>
              <RowForm item={{ projectId: p.id }} class="stack">
                <p>
                  The current key stops working at once: every site sending data with it must be
                  updated.
                </p>
                <button type="submit" name="intent" value="regenerate-key" class="danger">
                  Yes, regenerate the key of {p.name}
                </button>
              </RowForm>
            </details>
          )}
          {owner && (
            <details>
              <summary>Delete project</summary>
              <ConfirmForm
                id={`delete-project-${p.id}`}
                intent="delete-project"
                phrase={DELETE_PROJECT_PHRASE}
                action={`Delete ${p.name}`}
                item={{ projectId: p.id }}
              >
                <p>Its sessions and recordings are deleted with it.</p>
              </ConfirmForm>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}
