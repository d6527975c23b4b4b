// The top bar of every page: the product's sections with the current one marked, the active
// organization with a switcher, and sign-out. Signed out, only the brand and "Sign in".
import { heatmapsHref } from "@/page_state/heatmaps.ts";
import { insightsHref } from "@/page_state/insights.ts";
import { sessionsHref } from "@/page_state/sessions.ts";
import { trackedUsersHref } from "@/page_state/tracked_users.ts";
import type { OrganizationView } from "@/core/organizations/schema.ts";
import { OrganizationSwitcher } from "./OrganizationSwitcher.tsx";

const SECTIONS = [
  { href: sessionsHref(), label: "Sessions", owns: ["/sessions", "/replays/"] },
  { href: trackedUsersHref(), label: "Users", owns: ["/users"] },
  { href: insightsHref(), label: "Insights", owns: ["/insights"] },
  { href: heatmapsHref(), label: "Heatmaps", owns: ["/heatmaps"] },
  {
    href: "/settings/organization",
    label: "Settings",
    owns: ["/settings/", "/invites", "/projects/"],
  },
];

interface Props {
  url: URL;
  /** null when signed out. */
  email: string | null;
  organizations: OrganizationView[];
}

export function TopBar({ url, email, organizations }: Props) {
  const path = url.pathname;
  return (
    <header class="site-header">
      <a class="brand" href="/">
        <span class="brand-mark" aria-hidden="true" />
        Playhead
      </a>
      {email && (
        <nav class="site-nav" aria-label="Main">
          {SECTIONS.map((s) => (
            <a
              key={s.href}
              href={s.href}
              aria-current={s.owns.some((prefix) => path.startsWith(prefix)) ? "page" : undefined}
            >
              {s.label}
            </a>
          ))}
        </nav>
      )}
      <div class="header-tools">
        {email
          ? (
            <>
              <OrganizationSwitcher url={url} organizations={organizations} />
              <form method="post" action="/signout">
                <button type="submit" class="ghost" title={`Signed in as ${email}`}>
                  Sign out
                </button>
              </form>
            </>
          )
          : <a class="button" href="/signin">Sign in</a>}
      </div>
    </header>
  );
}
