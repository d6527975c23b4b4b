// How many sessions a saved search matches that started in a time window: the sessions list's own
// filter (core/sessions/list.ts `filterOf`, one query path), capped at NEW_COUNT_CAP + 1 so a count
// costs the same at any size (docs/decisions.md "Saved searches"). Alert rules on a saved search
// count with it too.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { countStartedBetween } from "@/db/queries/saved_searches/count.ts";
import { filterOf } from "@/core/sessions/list.ts";
import { readSavedQuery } from "./query.ts";

/** Counts stop past this: an answer of NEW_COUNT_CAP + 1 reads "1,000+". */
export const NEW_COUNT_CAP = 1000;

/** What a count needs of a saved search (a row of db/queries/saved_searches, or its wire form). */
export interface CountableSearch {
  organizationId: string;
  /** Its normalized /sessions query (core/saved_searches/query.ts). */
  query: string;
}

/**
 * Sessions of the saved search's organization and filters whose start is in [from, to), at most
 * `cap` + 1 (more than `cap` answers `cap` + 1). The query's `range` is read at `to`.
 */
export async function countMatching(
  db: Kysely<Database>,
  search: CountableSearch,
  from: Date,
  to: Date,
  cap = NEW_COUNT_CAP,
): Promise<number> {
  const { input } = readSavedQuery(search.query);
  return await countStartedBetween(db, filterOf(search.organizationId, input, to), from, to, cap);
}
