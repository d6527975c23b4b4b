// The settings pages' frame: a narrower column with tabs between profile and organization.
import type { LayoutProps } from "$fresh/server.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

const TABS = [
  { href: "/settings/organization", label: "Organization" },
  { href: "/settings/profile", label: "Profile" },
  { href: "/invites", label: "Your invites" },
];

/** Settings pages: a narrower column with tabs between them. */
export default function SettingsLayout({ Component, url }: LayoutProps<unknown, DashboardState>) {
  return (
    <div class="narrow stack-page">
      <nav class="tabs" aria-label="Settings">
        {TABS.map((t) => (
          <a key={t.href} href={t.href} aria-current={url.pathname === t.href ? "page" : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      <Component />
    </div>
  );
}
