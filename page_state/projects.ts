// A project's pages (/projects/:id/setup, /projects/:id/settings, /projects/:id/alerts): their links, and whether a path
// is one of them (another organization holds no such project: its switcher leaves them).
const PROJECTS = "/projects/";

export type ProjectPage = "setup" | "settings" | "alerts";

/** A link to one of a project's pages. */
export function projectHref(id: string, page: ProjectPage): string {
  return `${PROJECTS}${encodeURIComponent(id)}/${page}`;
}

/** Whether `path` (a pathname) is under a project's pages. */
export function isProjectPath(path: string): boolean {
  return path.startsWith(PROJECTS);
}

/** The project's Alerts page with its new-rule form filled in (the insights' "Alert me"). */
export function alertRuleHref(
  id: string,
  draft: { signal: string; groupBy: string; group: string },
): string {
  return `${projectHref(id, "alerts")}?${new URLSearchParams(draft)}`;
}
