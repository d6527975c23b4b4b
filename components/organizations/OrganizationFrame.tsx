// The frame of the organization settings pages: the active organization's name and the viewer's
// role, tabs to the overview and to each concern's own page, and the outcome of the last form.
import { Head } from "$fresh/runtime.ts";
import type { ComponentChildren } from "preact";
import type { OrganizationView } from "@/core/organizations/schema.ts";
import type { FormFailure } from "@/http/forms.ts";
import { Notice } from "@/components/ui/Notice.tsx";

export const ORGANIZATION_PATH = "/settings/organization";

const TABS = [
  [ORGANIZATION_PATH, "Overview"],
  [`${ORGANIZATION_PATH}/members`, "Members"],
  [`${ORGANIZATION_PATH}/invites`, "Invites"],
  [`${ORGANIZATION_PATH}/projects`, "Projects"],
  [`${ORGANIZATION_PATH}/audit`, "Audit log"],
] as const;

interface Props {
  active: OrganizationView | null;
  url: URL;
  notices: Record<string, string>;
  failure?: FormFailure;
  children?: ComponentChildren;
}

export function OrganizationFrame({ active, url, notices, failure, children }: Props) {
  const overview = url.pathname === ORGANIZATION_PATH;
  return (
    <>
      <Head>
        <title>{active ? `${active.name} · Playhead` : "Organization · Playhead"}</title>
      </Head>
      <h1>{active ? active.name : "Organization"}</h1>
      {active && (
        <>
          <p class="muted">
            Your role: <span class="badge">{active.role}</span>
          </p>
          <nav class="tabs" aria-label="Organization settings">
            {TABS.map(([path, label]) => (
              <a key={path} href={path} aria-current={url.pathname === path ? "page" : undefined}>
                {label}
              </a>
            ))}
          </nav>
        </>
      )}
      <Notice url={url} notices={notices} failure={failure} />
      {!active && (
        <p>
          You have no active organization. {overview
            ? "Switch to one or create one."
            : <a href={ORGANIZATION_PATH}>Switch to one or create one.</a>}
        </p>
      )}
      {children}
    </>
  );
}
