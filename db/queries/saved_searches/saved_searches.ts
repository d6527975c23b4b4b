// Saved searches of one organization: written, listed with their authors and the member's last
// opening, found, changed and deleted by id; a member's opening recorded (migration 0037).
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface SavedSearchRow {
  id: string;
  organization_id: string;
  name: string;
  query: string;
  author_id: string | null;
  author_name: string | null;
  created_at: Date;
  updated_at: Date;
  /** When the member asked about last opened it; null: never. */
  opened_at: Date | null;
}

/** At most this many saved searches are listed (newest first). */
export const SAVED_SEARCH_LIST_LIMIT = 200;

function listed(db: Kysely<Database>, userId: string) {
  return db.selectFrom("saved_searches")
    .leftJoin("users", "users.id", "saved_searches.author_id")
    .leftJoin(
      "saved_search_opens",
      (join) =>
        join.onRef("saved_search_opens.saved_search_id", "=", "saved_searches.id")
          .on("saved_search_opens.user_id", "=", userId),
    )
    .select([
      "saved_searches.id",
      "saved_searches.organization_id",
      "saved_searches.name",
      "saved_searches.query",
      "saved_searches.author_id",
      sql<string | null>`COALESCE(users.name, users.email)`.as("author_name"),
      "saved_searches.created_at",
      "saved_searches.updated_at",
      "saved_search_opens.opened_at",
    ]);
}

export async function savedSearchesOf(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<SavedSearchRow[]> {
  return await listed(db, userId).where("saved_searches.organization_id", "=", organizationId)
    .orderBy("saved_searches.created_at", "desc").orderBy("saved_searches.id", "desc")
    .limit(SAVED_SEARCH_LIST_LIMIT).execute();
}

export async function savedSearchById(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
  id: string,
): Promise<SavedSearchRow | undefined> {
  return await listed(db, userId).where("saved_searches.organization_id", "=", organizationId)
    .where("saved_searches.id", "=", id).executeTakeFirst();
}

export async function insertSavedSearch(
  db: Kysely<Database>,
  row: { id: string; organization_id: string; name: string; query: string; author_id: string },
  now: Date,
): Promise<void> {
  // The app's clock, not the database's: newCount starts here and counts up to the app's now.
  await db.insertInto("saved_searches").values({ ...row, created_at: now, updated_at: now })
    .execute();
}

export async function updateSavedSearch(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  change: { name?: string; query?: string },
  now: Date,
): Promise<void> {
  await db.updateTable("saved_searches").set({ ...change, updated_at: now })
    .where("organization_id", "=", organizationId).where("id", "=", id).execute();
}

/**
 * Deletes the saved search; false when an alert rule counts it (its foreign key, migration 0039,
 * refuses the delete: the rule is changed or deleted first).
 */
export async function deleteSavedSearch(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<boolean> {
  try {
    await db.deleteFrom("saved_searches").where("organization_id", "=", organizationId)
      .where("id", "=", id).execute();
    return true;
  } catch (error) {
    if ((error as { code?: string } | null)?.code === "23503") return false;
    throw error;
  }
}

/** The names of the alert rules counting the saved search (at most a few, by name). */
export async function alertRulesOnSavedSearch(
  db: Kysely<Database>,
  id: string,
): Promise<string[]> {
  const rows = await db.selectFrom("alert_rules").select("name")
    .where("saved_search_id", "=", id).orderBy("name").limit(3).execute();
  return rows.map((r) => r.name);
}

/** The member has seen the search's sessions up to `at`. */
export async function markSavedSearchOpened(
  db: Kysely<Database>,
  savedSearchId: string,
  userId: string,
  at: Date,
): Promise<void> {
  await db.insertInto("saved_search_opens")
    .values({ saved_search_id: savedSearchId, user_id: userId, opened_at: at })
    .onConflict((oc) => oc.columns(["saved_search_id", "user_id"]).doUpdateSet({ opened_at: at }))
    .execute();
}
