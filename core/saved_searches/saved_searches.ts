// Saved searches (docs/decisions.md "Saved searches"): shared with the organization; every
// member, VIEWER included, creates, lists and opens them; the author or an ADMIN+ changes or
// deletes one. Each answers the member's newCount: sessions started since that member last opened
// it (never opened: since it was created), counted by core/saved_searches/count.ts.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { conflict, forbidden, notFound } from "@/core/errors.ts";
import { newRowId } from "@/core/ids.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { atLeast } from "@/core/permissions.ts";
import {
  alertRulesOnSavedSearch,
  deleteSavedSearch,
  insertSavedSearch,
  markSavedSearchOpened,
  savedSearchById,
  savedSearchesOf,
  type SavedSearchRow,
  updateSavedSearch,
} from "@/db/queries/saved_searches/saved_searches.ts";
import { countMatching } from "./count.ts";
import { readSavedQuery, savedSearchHref } from "./query.ts";
import type {
  CreateSavedSearchInput,
  SavedSearchList,
  SavedSearchOut,
  UpdateSavedSearchInput,
} from "./schema.ts";

type Deps = Pick<AppDeps, "db">;

function canEdit(viewer: Viewer, row: SavedSearchRow): boolean {
  return row.author_id === viewer.userId || atLeast(viewer.role!, "ADMIN");
}

async function toOut(deps: Deps, viewer: Viewer, row: SavedSearchRow, now: Date) {
  const since = row.opened_at ?? row.created_at;
  const out: SavedSearchOut = {
    id: row.id,
    name: row.name,
    query: row.query,
    href: savedSearchHref(row.query),
    authorId: row.author_id,
    authorName: row.author_name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    openedAt: row.opened_at?.toISOString() ?? null,
    newCount: await countMatching(
      deps.db.kysely,
      {
        organizationId: row.organization_id,
        query: row.query,
      },
      since,
      now,
    ),
    canEdit: canEdit(viewer, row),
  };
  return out;
}

export async function listSavedSearches(
  deps: Deps,
  viewer: Viewer,
  now = new Date(),
): Promise<SavedSearchList> {
  const organizationId = activeOrganization(viewer);
  const rows = await savedSearchesOf(deps.db.kysely, organizationId, viewer.userId);
  const data: SavedSearchOut[] = [];
  for (const row of rows) data.push(await toOut(deps, viewer, row, now));
  return { data };
}

export async function createSavedSearch(
  deps: Deps,
  viewer: Viewer,
  input: CreateSavedSearchInput,
  now = new Date(),
): Promise<SavedSearchOut> {
  const organizationId = activeOrganization(viewer);
  const query = readSavedQuery(input.query).text;
  const id = newRowId();
  await insertSavedSearch(deps.db.kysely, {
    id,
    organization_id: organizationId,
    name: input.name,
    query,
    author_id: viewer.userId,
  }, now);
  const row = await savedSearchById(deps.db.kysely, organizationId, viewer.userId, id);
  return await toOut(deps, viewer, row!, now);
}

async function editable(deps: Deps, viewer: Viewer, id: string): Promise<SavedSearchRow> {
  const row = await savedSearchById(deps.db.kysely, activeOrganization(viewer), viewer.userId, id);
  if (!row) throw notFound("saved search");
  if (!canEdit(viewer, row)) {
    throw forbidden("only its author or an ADMIN can change or delete a saved search");
  }
  return row;
}

export async function changeSavedSearch(
  deps: Deps,
  viewer: Viewer,
  id: string,
  input: UpdateSavedSearchInput,
  now = new Date(),
): Promise<SavedSearchOut> {
  const query = input.query === undefined ? undefined : readSavedQuery(input.query).text;
  const row = await editable(deps, viewer, id);
  await updateSavedSearch(
    deps.db.kysely,
    row.organization_id,
    id,
    { name: input.name, query },
    now,
  );
  const changed = await savedSearchById(deps.db.kysely, row.organization_id, viewer.userId, id);
  return await toOut(deps, viewer, changed!, now);
}

export async function removeSavedSearch(deps: Deps, viewer: Viewer, id: string): Promise<void> {
  const row = await editable(deps, viewer, id);
  if (await deleteSavedSearch(deps.db.kysely, row.organization_id, id)) return;
  const rules = await alertRulesOnSavedSearch(deps.db.kysely, id);
  throw conflict(
    `an alert rule counts this saved search (${
      rules.map((r) => JSON.stringify(r)).join(", ")
    }): change or delete the rule first`,
  );
}

/** The member has seen it now: its newCount starts again from `now`. */
export async function openSavedSearch(
  deps: Deps,
  viewer: Viewer,
  id: string,
  now = new Date(),
): Promise<{ href: string; openedAt: string }> {
  const organizationId = activeOrganization(viewer);
  const row = await savedSearchById(deps.db.kysely, organizationId, viewer.userId, id);
  if (!row) throw notFound("saved search");
  await markSavedSearchOpened(deps.db.kysely, row.id, viewer.userId, now);
  return { href: savedSearchHref(row.query), openedAt: now.toISOString() };
}
