// Wire schemas of saved searches (docs/decisions.md "Saved searches"): a name and a /sessions URL
// query every member of the organization shares, each answered with the member's own newCount.
import { z } from "zod";

export const MAX_SAVED_SEARCH_NAME = 100;
export const MAX_SAVED_SEARCH_QUERY = 4000;

/** Bidirectional controls (U+202A–E, U+2066–9, marks): removed, so a name cannot reorder a row. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

const name = z.string().max(1000).transform((text) => text.replace(BIDI_CONTROLS, "")).pipe(
  z.string().trim().min(1).max(MAX_SAVED_SEARCH_NAME),
).meta({ description: "1..100 characters, trimmed; bidirectional controls removed" });

const query = z.string().max(MAX_SAVED_SEARCH_QUERY).meta({
  description: "the /sessions page's URL query (`?` optional), the same filters as " +
    "GET /api/sessions; an unknown filter or value is a 400 naming `query.<filter>`",
});

export const createSavedSearchBody = z.strictObject({ name, query });
export type CreateSavedSearchInput = z.output<typeof createSavedSearchBody>;

export const updateSavedSearchBody = z.strictObject({
  name: name.optional(),
  query: query.optional(),
});
export type UpdateSavedSearchInput = z.output<typeof updateSavedSearchBody>;

export const savedSearch = z.strictObject({
  id: z.string(),
  name: z.string(),
  query: z.string().meta({ description: "normalized: the filters in the sessions API's order" }),
  href: z.string().meta({ description: "the sessions page of the search" }),
  authorId: z.string().nullable().meta({ description: "null once the author's account is gone" }),
  authorName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  openedAt: z.iso.datetime().nullable().meta({
    description: "when the signed-in member last opened it; null: never",
  }),
  newCount: z.number().int().meta({
    description: "matching sessions started since the member last opened it (never: since it " +
      "was created), at most 1,001: more than 1,000 reads 1,000+",
  }),
  canEdit: z.boolean().meta({ description: "the member is its author or an ADMIN+" }),
});
export type SavedSearchOut = z.output<typeof savedSearch>;

export const savedSearchList = z.strictObject({ data: z.array(savedSearch) });
export type SavedSearchList = z.output<typeof savedSearchList>;

export const savedSearchOpened = z.strictObject({
  href: z.string().meta({ description: "the sessions page of the search, to go to" }),
  openedAt: z.iso.datetime(),
});
