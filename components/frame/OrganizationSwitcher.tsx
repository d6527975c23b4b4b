// The active organization's name in the top bar; opening it lists the viewer's other
// organizations, each a one-button form that switches and comes back to the current page.
import type { OrganizationView } from "@/core/organizations/schema.ts";

interface Props {
  url: URL;
  organizations: OrganizationView[];
}

export function OrganizationSwitcher({ url, organizations }: Props) {
  const active = organizations.find((o) => o.active);
  const next = url.pathname + url.search;
  return (
    <details class="menu" data-testid="organization-switcher">
      <summary aria-label={`Organization: ${active?.name ?? "none"}. Switch organization`}>
        {active?.name ?? "No organization"}
      </summary>
      <div class="menu-panel">
        <p class="menu-label">Organizations</p>
        <ul class="plain-list">
          {organizations.map((o) => (
            <li key={o.id}>
              <form method="post" action="/organizations/switch">
                <input type="hidden" name="organizationId" value={o.id} />
                <input type="hidden" name="next" value={next} />
                <button
                  type="submit"
                  class="menu-item"
                  aria-current={o.active ? "true" : undefined}
                  disabled={o.active}
                >
                  <span>{o.name}</span>
                  <span class="badge">{o.role}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
        <hr />
        <a class="menu-link" href="/settings/organization">Manage organizations</a>
        <a class="menu-link" href="/settings/profile">Your profile</a>
      </div>
    </details>
  );
}
