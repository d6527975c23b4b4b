// What an organization page shows to a viewer who has none active (e.g. removed from the last one).
export function NoOrganization() {
  return (
    <section class="card empty" data-testid="no-organization">
      <h2>No active organization</h2>
      <p>Switch to one of your organizations, or create one, to see its recordings.</p>
      <a class="button button-primary" href="/settings/organization">Organizations</a>
    </section>
  );
}
