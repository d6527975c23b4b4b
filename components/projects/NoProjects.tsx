// The card of an organization without projects (the start page, the sessions page): what a
// project is for, and the way to create one — or whom to ask.
interface Props {
  /** Whether the viewer may create projects (OWNER). */
  canCreate: boolean;
  testId: string;
}

export function NoProjects({ canCreate, testId }: Props) {
  return (
    <section class="card empty" data-testid={testId}>
      <h2>No projects yet</h2>
      <p>Sessions are recorded into a project. Create one to get its recording snippet.</p>
      {canCreate
        ? <a class="button button-primary" href="/settings/organization">Create a project</a>
        : <p>Ask an owner of this organization to create one.</p>}
    </section>
  );
}
