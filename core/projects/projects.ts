// Projects and keys (docs/decisions.md "Projects and keys"). Operations on one project are
// scoped to the viewer's active organization (elsewhere → 404); creation names its
// organization explicitly. OWNER: create, delete, read and regenerate the key; ADMIN: rename and
// the display-name trait key; VIEWER: read.
import type { AppDeps } from "@/core/deps.ts";
import { organizationsOf } from "@/db/queries/organizations/organizations.ts";
import * as q from "@/db/queries/projects/projects.ts";
import type { Role } from "@/db/schema.ts";
import { log } from "@/log.ts";
import { notFound, validation } from "@/core/errors.ts";
import { generateProjectKey, maskProjectKey } from "./keys.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { roleIn } from "@/core/permissions.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type {
  NetworkSettingsView,
  ProjectKey,
  ProjectPatchedView,
  ProjectView,
  RecordingSettingsView,
} from "./schema.ts";
import { networkColumns, networkOf, recordingColumns, recordingOf } from "./recording.ts";
import { recordAudit } from "@/core/audit/record.ts";

export const DELETE_PROJECT_PHRASE = "delete project";
const DAY_MS = 86_400_000;

type ProjectDeps = Pick<AppDeps, "db">;

function toView(row: q.ProjectRow): ProjectView {
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    id: row.id,
    name: row.name,
    maskedKey: maskProjectKey(row.key),
    organizationId: row.organization_id,
    sessionCount: row.session_count,
    lastUsedAt: row.last_used_at ? iso(row.last_used_at) : null,
    displayNameTraitKey: row.display_name_trait_key,
    recording: recordingOf(row),
    network: networkOf(row),
    retentionDays: row.retention_days,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Every project of every organization the viewer belongs to, or of one of them. */
export async function listProjects(
  deps: ProjectDeps,
  viewer: Viewer,
  input: { organizationId?: string },
): Promise<ProjectView[]> {
  let orgIds: string[];
  if (input.organizationId) {
    await roleIn(deps, viewer, input.organizationId);
    orgIds = [input.organizationId];
  } else {
    orgIds = (await organizationsOf(deps.db.kysely, viewer.userId)).map((o) => o.id);
  }
  return (await q.listProjects(deps.db.kysely, orgIds)).map(toView);
}

export async function createProject(
  deps: ProjectDeps,
  viewer: Viewer,
  input: { organizationId: string; name: string },
): Promise<ProjectView> {
  await roleIn(deps, viewer, input.organizationId, "OWNER");
  const id = await deps.db.kysely.transaction().execute(async (tx) => {
    const id = await q.createProject(tx, { ...input, key: generateProjectKey() });
    const audit = { organizationId: input.organizationId, targetId: id, details: input };
    await recordAudit(tx, viewer, { ...audit, action: "project.create" });
    return id;
  });
  return toView((await q.findProject(deps.db.kysely, id))!);
}

/** The project, when it belongs to the viewer's active organization and the role suffices. */
async function projectInActiveOrg(deps: ProjectDeps, viewer: Viewer, id: string, min: Role) {
  const organizationId = activeOrganization(viewer, "VIEWER");
  const row = await q.findProject(deps.db.kysely, id);
  if (!row || row.organization_id !== organizationId) throw notFound("project");
  activeOrganization(viewer, min); // 403 only once the project is known to be visible
  return row;
}

/** One project of the viewer's active organization; not_found for any other. */
export async function getProject(
  deps: ProjectDeps,
  viewer: Viewer,
  input: { id: string },
): Promise<ProjectView> {
  return toView(await projectInActiveOrg(deps, viewer, input.id, "VIEWER"));
}

export async function updateProject(
  deps: ProjectDeps & Pick<AppDeps, "knownKeys">,
  viewer: Viewer,
  input: {
    id: string;
    name?: string;
    displayNameTraitKey?: string | null;
    /** The settings given replace the stored ones; the others stay. */
    recording?: Partial<RecordingSettingsView>;
    network?: Partial<NetworkSettingsView>;
    retentionDays?: number;
  },
  now = new Date(),
): Promise<ProjectPatchedView> {
  const { key, organization_id } = await projectInActiveOrg(deps, viewer, input.id, "ADMIN");
  const { id, ...details } = input;
  await deps.db.kysely.transaction().execute(async (tx) => {
    await q.updateProject(tx, id, {
      name: input.name,
      display_name_trait_key: input.displayNameTraitKey,
      retention_days: input.retentionDays,
      ...recordingColumns(input.recording ?? {}),
      ...networkColumns(input.network ?? {}),
    });
    // The settings given (retention, recording, network, name), as the audit log shows them.
    const change = { organizationId: organization_id, targetId: id, details };
    await recordAudit(tx, viewer, { ...change, action: "project.update" });
  });
  // This process's ingest keeps requests, or stops, from now on (core/ingest/known_keys.ts).
  if (input.network) deps.knownKeys.forget(key);
  const view = toView((await q.findProject(deps.db.kysely, input.id))!);
  if (input.retentionDays === undefined) return view;
  // What the next daily cleanup deletes under the new retention (core/service/cleanup.ts).
  const cutoff = new Date(now.getTime() - input.retentionDays * DAY_MS);
  return {
    ...view,
    sessionsToDelete: await q.countSessionsBefore(deps.db.kysely, input.id, cutoff),
  };
}

/** The project's unpinned sessions past its retention now: what the next cleanup deletes. */
export async function sessionsPastRetention(
  deps: ProjectDeps,
  viewer: Viewer,
  input: { id: string },
  now = new Date(),
): Promise<number> {
  const row = await projectInActiveOrg(deps, viewer, input.id, "VIEWER");
  const cutoff = new Date(now.getTime() - row.retention_days * DAY_MS);
  return await q.countSessionsBefore(deps.db.kysely, input.id, cutoff);
}

export async function deleteProject(
  deps: ProjectDeps,
  viewer: Viewer,
  input: { id: string; confirmation: string },
): Promise<void> {
  const { organization_id, name } = await projectInActiveOrg(deps, viewer, input.id, "OWNER");
  if (input.confirmation !== DELETE_PROJECT_PHRASE) {
    throw validation(`type "${DELETE_PROJECT_PHRASE}" to confirm`, [
      { path: "confirmation", message: `must be exactly "${DELETE_PROJECT_PHRASE}"` },
    ]);
  }
  await deps.db.kysely.transaction().execute(async (tx) => {
    await q.deleteProject(tx, input.id);
    const audit = { organizationId: organization_id, targetId: input.id, details: { name } };
    await recordAudit(tx, viewer, { ...audit, action: "project.delete" });
  });
}

export async function revealProjectKey(
  deps: ProjectDeps,
  viewer: Viewer,
  input: { id: string },
): Promise<ProjectKey> {
  const row = await projectInActiveOrg(deps, viewer, input.id, "OWNER");
  const audit = { organizationId: row.organization_id, targetId: input.id };
  await recordAudit(deps.db.kysely, viewer, { ...audit, action: "project.key_reveal" });
  return { key: row.key };
}

export async function regenerateProjectKey(
  deps: ProjectDeps,
  viewer: Viewer,
  input: { id: string },
): Promise<ProjectView> {
  const row = await projectInActiveOrg(deps, viewer, input.id, "OWNER");
  await deps.db.kysely.transaction().execute(async (tx) => {
    await q.updateProject(tx, input.id, { key: generateProjectKey() });
    const audit = { organizationId: row.organization_id, targetId: input.id };
    await recordAudit(tx, viewer, { ...audit, action: "project.key_rotate" });
  });
  log.info("project:key:regenerate:ok", { projectId: input.id, userId: viewer.userId });
  return toView((await q.findProject(deps.db.kysely, input.id))!);
}
