// /settings/organization/audit: the organization's audit log for its ADMINs and OWNERs (newest
// first, filtered by `?action=`, older pages by `?cursor=`: page_state/audit.ts), and its "audit
// replay views" switch; a VIEWER is told the log is not theirs to read and sees none of it.
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { AuditTable } from "@/components/organizations/AuditTable.tsx";
import { OrganizationFrame } from "@/components/organizations/OrganizationFrame.tsx";
import { auditLog } from "@/core/audit/list.ts";
import type { AuditPage, AuditQuery } from "@/core/audit/schema.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { organizationsWithActive, renameOrganization } from "@/core/organizations/organizations.ts";
import { auditViewsForm, type OrganizationView } from "@/core/organizations/schema.ts";
import { atLeast } from "@/core/permissions.ts";
import { formPage } from "@/http/form_page.ts";
import { type FormFailure, parseForm } from "@/http/forms.ts";
import { readAuditQuery } from "@/page_state/audit.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

const NOTICES: Record<string, string> = {
  "views-on": "Replay views are audited from now on.",
  "views-off": "Replay views are no longer audited.",
};

interface Data {
  active: OrganizationView | null;
  query: AuditQuery;
  /** null for a VIEWER (or without an active organization). */
  page: AuditPage | null;
  failure?: FormFailure;
}

async function load({ state, url }: FreshContext<DashboardState>): Promise<Data> {
  const query = readAuditQuery(url);
  const { active } = await organizationsWithActive(state.deps, state.viewer);
  if (!active || !atLeast(active.role, "ADMIN")) return { active, query, page: null };
  const page = await auditLog(state.deps, state.viewer, { ...query, organizationId: active.id });
  return { active, query, page };
}

export const handler = formPage(load, ({ state: { deps, viewer } }) => ({
  "audit-views": async (form) => {
    const on = parseForm(auditViewsForm, form).auditViews === "on";
    const organizationId = activeOrganization(viewer);
    await renameOrganization(deps, viewer, { organizationId, auditViews: on });
    return on ? "views-on" : "views-off";
  },
}));

export default function AuditPage({ data, url }: PageProps<Data, DashboardState>) {
  const { active, query, page, failure } = data;
  return (
    <OrganizationFrame active={active} url={url} notices={NOTICES} failure={failure}>
      {active && !page && (
        <p class="notice" data-testid="audit-refused">
          The audit log is read by the organization's ADMINs and OWNERs.
        </p>
      )}
      {active && page && (
        <>
          <section class="card stack" aria-labelledby="audit-views-heading">
            <h2 id="audit-views-heading">Replay views</h2>
            <form method="post" class="row">
              <label class="row">
                <input type="checkbox" name="auditViews" checked={active.auditViews} />
                Audit replay views: who opened which session's replay (once an hour per viewer)
              </label>
              <button type="submit" name="intent" value="audit-views">Save</button>
            </form>
          </section>
          <AuditTable
            entries={page.entries}
            action={query.action}
            nextCursor={page.nextCursor}
            paged={query.cursor !== undefined}
          />
          <p class="muted">Entries are kept 400 days.</p>
        </>
      )}
    </OrganizationFrame>
  );
}
