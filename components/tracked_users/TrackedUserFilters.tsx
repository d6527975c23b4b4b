// The users list's controls as a GET form: every choice lands in the URL query, so a filtered view
// can be shared and the back button works.
import { STATUSES } from "@/core/tracked_users/status.ts";
import type { TrackedUserListInput } from "@/core/tracked_users/schema.ts";
import { trackedUsersHref } from "@/page_state/tracked_users.ts";
import { StatusName } from "./StatusName.tsx";
import { OrderAndApply } from "@/components/ui/OrderAndApply.tsx";
import { SearchField } from "@/components/ui/SearchField.tsx";

const SORTS = [
  ["last-seen", "Last seen"],
  ["sessions", "Sessions"],
  ["active-time", "Active time (7 d)"],
  ["newest", "First seen"],
] as const;

export function TrackedUserFilters({ query }: { query: TrackedUserListInput }) {
  return (
    <form method="get" action={trackedUsersHref()} class="filters" aria-label="Filter users">
      <SearchField value={query.search ?? ""} placeholder="Name or user id" />
      <div class="field" role="group" aria-labelledby="status-label">
        <span id="status-label">Status</span>
        <div class="chips">
          {STATUSES.map((status) => (
            <label class="chip" key={status}>
              <input
                type="checkbox"
                name="statuses"
                value={status}
                checked={query.statuses?.includes(status) ?? false}
              />
              <span class="dot" data-status={status} aria-hidden="true" />
              <StatusName status={status} />
            </label>
          ))}
        </div>
      </div>
      <label class="field">
        <span>Sort by</span>
        <select name="sort">
          {SORTS.map(([value, label]) => (
            <option key={value} value={value} selected={query.sort === value}>{label}</option>
          ))}
        </select>
      </label>
      <OrderAndApply sortDir={query.sortDir} resetHref={trackedUsersHref()} />
    </form>
  );
}
