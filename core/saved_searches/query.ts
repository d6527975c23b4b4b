// A saved search's query: the /sessions page's URL query (page_state/sessions.ts), checked with the
// sessions list's own schema (core/sessions/schema.ts `sessionListQuery`) and kept normalized:
// the schema's fields in its order, a page position (`cursor`) and the page's constants dropped.
import { type SessionListInput, sessionListQuery } from "@/core/sessions/schema.ts";
import { AppError, validation } from "@/core/errors.ts";
import { parseWith } from "@/core/validate.ts";

/** Fields of a page URL a saved search does not keep: the page position and the page's own. */
const NOT_KEPT = new Set(["cursor", "limit", "searchUsers"]);
/** The page's constants (page_state/sessions.ts PAGE_FIXED): its search box matches users too. */
const PAGE_FIXED = { searchUsers: "true" };
/** A field at its default is left out: `range=all` and no range are the same search. */
const DEFAULTS = sessionListQuery.parse({}) as Record<string, unknown>;

export interface SavedQuery {
  /** Normalized, without a leading `?` (empty: every session). */
  text: string;
  input: SessionListInput;
}

/** `text`: a query string, with or without `?` or a leading `/sessions`. 400 names `field`.x. */
export function readSavedQuery(text: string, field = "query"): SavedQuery {
  const bare = text.trim().replace(/^\/sessions(?=\?|$)/, "").replace(/^\?/, "");
  const params = new URLSearchParams(bare);
  const fields: Record<string, string> = {};
  const kept: [string, string][] = [];
  for (const name of new Set(params.keys())) {
    if (!(name in sessionListQuery.shape)) {
      throw validation(`invalid ${field}`, [{
        path: `${field}.${name}`,
        message: "not a filter of the sessions page",
      }]);
    }
    if (NOT_KEPT.has(name)) continue;
    const values = params.getAll(name).filter((v) => v !== "");
    if (values.length) fields[name] = values.join(",");
  }
  let input: SessionListInput;
  try {
    input = parseWith(sessionListQuery, { ...fields, ...PAGE_FIXED }, field);
  } catch (error) {
    if (!(error instanceof AppError) || !error.details.issues) throw error;
    throw validation(
      error.message,
      error.details.issues.map((issue) => ({ ...issue, path: `${field}.${issue.path}` })),
    );
  }
  for (const name of Object.keys(sessionListQuery.shape)) {
    if (fields[name] === undefined) continue;
    for (const value of params.getAll(name)) {
      if (value !== "" && value !== String(DEFAULTS[name] ?? "")) kept.push([name, value]);
    }
  }
  return { text: new URLSearchParams(kept).toString(), input };
}

/** The sessions page's URL of a saved query. */
export function savedSearchHref(text: string): string {
  return text ? `/sessions?${text}` : "/sessions";
}
