// The sessions page's saved searches (docs/decisions.md "Saved searches"): the organization's,
// each with what started since the member last opened it, linked through
// /api/saved-searches/:id/open (which marks it seen and answers 303 to its sessions page); and a
// form that saves the page's current filters under a name (post/redirect/get, works without JS).
import type { SavedSearchOut } from "@/core/saved_searches/schema.ts";
import { MAX_SAVED_SEARCH_NAME } from "@/core/saved_searches/schema.ts";
import type { FormFailure } from "@/http/forms.ts";
import { formatCount } from "@/utils/format.ts";

/** More than this many is "1,000+" (core/saved_searches/count.ts NEW_COUNT_CAP). */
const CAP = 1000;

interface Props {
  searches: SavedSearchOut[];
  /** The page's own URL: the form posts back to it, so the saved query is the page's. */
  action: string;
  failure?: FormFailure | null;
}

export function SavedSearches({ searches, action, failure }: Props) {
  return (
    <section class="card saved-searches" aria-label="Saved searches">
      <div class="saved-searches-list">
        <h2>Saved searches</h2>
        {searches.length === 0
          ? <p class="muted">None yet: filter the list, then save it under a name.</p>
          : (
            <ul>
              {searches.map((search) => (
                <li key={search.id}>
                  <a
                    href={`/api/saved-searches/${encodeURIComponent(search.id)}/open`}
                    data-testid="saved-search"
                  >
                    <bdi>{search.name}</bdi>
                    {search.newCount > 0 && (
                      <span class="badge badge-accent" title="started since you last opened it">
                        {search.newCount > CAP ? `${formatCount(CAP)}+` : formatCount(
                          search.newCount,
                        )} new
                      </span>
                    )}
                  </a>
                </li>
              ))}
            </ul>
          )}
      </div>
      <form method="post" action={action} class="saved-searches-form" autocomplete="off">
        <input type="hidden" name="intent" value="save-search" />
        <label class="field">
          <span>Save this search</span>
          <input
            name="name"
            required
            maxLength={MAX_SAVED_SEARCH_NAME}
            placeholder="Name, e.g. Checkout rage clicks"
          />
        </label>
        <button type="submit">Save</button>
        {failure && <p class="form-error" role="alert">{failure.message}</p>}
      </form>
    </section>
  );
}
