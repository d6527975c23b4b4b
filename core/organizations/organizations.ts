// Organizations (docs/decisions.md "Organizations, members and invites"): list, create, switch the
// active one, rename (ADMIN+) and delete (OWNER, with a confirmation phrase).
import type { AppDeps } from "@/core/deps.ts";
import {
  createOrganization as insertOrganization,
  deleteOrganization as removeOrganization,
  organizationsOf,
  renameOrganization as updateName,
  setActiveOrganization,
  setAllowPublicLinks,
  setAuditViews,
} from "@/db/queries/organizations/organizations.ts";
import { recordAudit } from "@/core/audit/record.ts";
import { log } from "@/log.ts";
import { notFound, validation } from "@/core/errors.ts";
import { roleIn } from "@/core/permissions.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { OrganizationView } from "./schema.ts";

export const DELETE_ORGANIZATION_PHRASE = "delete organization";

type OrgDeps = Pick<AppDeps, "db">;

export async function listOrganizations(
  deps: OrgDeps,
  viewer: Viewer,
): Promise<OrganizationView[]> {
  const rows = await organizationsOf(deps.db.kysely, viewer.userId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    memberCount: row.member_count,
    createdAt: new Date(row.created_at).toISOString(),
    active: row.id === viewer.activeOrganizationId,
    allowPublicLinks: row.allow_public_links,
    auditViews: row.audit_views,
  }));
}

/** The viewer's organizations and, among them, the active one (null when there is none). */
export async function organizationsWithActive(deps: OrgDeps, viewer: Viewer) {
  const organizations = await listOrganizations(deps, viewer);
  return { organizations, active: organizations.find((o) => o.active) ?? null };
}

async function viewOf(deps: OrgDeps, viewer: Viewer, id: string): Promise<OrganizationView> {
  const found = (await listOrganizations(deps, viewer)).find((o) => o.id === id);
  if (!found) throw notFound("organization");
  return found;
}

export async function createOrganization(
  deps: OrgDeps,
  viewer: Viewer,
  input: { name: string },
): Promise<OrganizationView> {
  const id = await insertOrganization(deps.db.kysely, viewer.userId, input.name);
  const activeNow = viewer.activeOrganizationId ?? id;
  return await viewOf(deps, { ...viewer, activeOrganizationId: activeNow }, id);
}

export async function switchOrganization(
  deps: OrgDeps,
  viewer: Viewer,
  input: { organizationId: string },
): Promise<void> {
  await roleIn(deps, viewer, input.organizationId);
  await setActiveOrganization(deps.db.kysely, viewer.userId, input.organizationId);
}

export async function renameOrganization(
  deps: OrgDeps,
  viewer: Viewer,
  input: {
    organizationId: string;
    name?: string;
    allowPublicLinks?: boolean;
    auditViews?: boolean;
  },
): Promise<OrganizationView> {
  await roleIn(deps, viewer, input.organizationId, "ADMIN");
  const { organizationId, ...changed } = input;
  await deps.db.kysely.transaction().execute(async (tx) => {
    if (input.name !== undefined) await updateName(tx, organizationId, input.name);
    if (input.allowPublicLinks !== undefined) {
      await setAllowPublicLinks(tx, organizationId, input.allowPublicLinks);
    }
    if (input.auditViews !== undefined) await setAuditViews(tx, organizationId, input.auditViews);
    await recordAudit(tx, viewer, {
      organizationId,
      action: "organization.update",
      targetId: organizationId,
      details: changed,
    });
  });
  return await viewOf(deps, viewer, organizationId);
}

export async function deleteOrganization(
  deps: OrgDeps,
  viewer: Viewer,
  input: { organizationId: string; confirmation: string },
): Promise<void> {
  await roleIn(deps, viewer, input.organizationId, "OWNER");
  if (input.confirmation !== DELETE_ORGANIZATION_PHRASE) {
    throw validation(`type "${DELETE_ORGANIZATION_PHRASE}" to confirm`, [
      { path: "confirmation", message: `must be exactly "${DELETE_ORGANIZATION_PHRASE}"` },
    ]);
  }
  await removeOrganization(deps.db.kysely, input.organizationId);
  log.info("org:organization:delete:ok", { organizationId: input.organizationId });
}
