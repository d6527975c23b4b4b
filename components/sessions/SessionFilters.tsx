// The sessions list's controls as a GET form: every choice lands in the URL query, so a filtered
// view can be shared and the back button works. autocomplete="off" keeps the browser from restoring
// what was typed last on a back navigation: the controls show the URL's query, nothing else.
import { ProjectPicker } from "@/components/ui/ProjectPicker.tsx";
import type { ProjectView } from "@/core/projects/schema.ts";
import type { SessionListInput } from "@/core/sessions/schema.ts";
import { VITAL_NAMES, VITAL_RATINGS } from "@/core/ingest/web_vitals.ts";
import { sessionsHref } from "@/page_state/sessions.ts";
import { OrderAndApply } from "@/components/ui/OrderAndApply.tsx";
import { FilterSelect } from "@/components/ui/FilterSelect.tsx";
import { SearchField } from "@/components/ui/SearchField.tsx";
import { formatDuration } from "@/utils/format.ts";

const SIGNALS = [
  ["error", "Errors"],
  ["rage_click", "Rage clicks"],
  ["dead_click", "Dead clicks"],
  ["network_error", "Failed requests"],
] as const;

const DEVICES = [["desktop", "Desktop"], ["mobile", "Mobile"], ["tablet", "Tablet"]] as const;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** Duration bounds offered by the form, in ms (the API's unit). */
const MIN_DURATIONS = [
  [10 * SECOND, "10 s"],
  [30 * SECOND, "30 s"],
  [MINUTE, "1 min"],
  [5 * MINUTE, "5 min"],
  [15 * MINUTE, "15 min"],
] as const;
const MAX_DURATIONS = [
  [10 * SECOND, "10 s"],
  [MINUTE, "1 min"],
  [5 * MINUTE, "5 min"],
  [30 * MINUTE, "30 min"],
] as const;

/** Why a session was recorded (the `reason` filter, a comma list). */
const REASONS = [
  ["sampled", "From its start"],
  ["error,rage_click,dead_click,manual", "By any trigger"],
  ["error", "By an error"],
  ["rage_click", "By a rage click"],
  ["dead_click", "By a dead click"],
  ["manual", "By Playhead.trigger()"],
] as const;

const COMMENTS = [["true", "With comments"], ["false", "Without"]] as const;
const PINNED = [["true", "Pinned"], ["false", "Not pinned"]] as const;

const RATING_WORDS = { good: "good", needs_improvement: "needs improvement", poor: "poor" };
/**
 * The web vitals a page of the session had (the `vital` filter, a comma list matching any): any
 * poor one, then each name × rating.
 */
const VITALS: (readonly [string, string])[] = [
  [VITAL_NAMES.map((name) => `${name}:poor`).join(","), "Any poor"],
  ...VITAL_NAMES.flatMap((name) =>
    VITAL_RATINGS.map((rating) =>
      [`${name}:${rating}`, `${name.toUpperCase()} ${RATING_WORDS[rating]}`] as const
    )
  ),
];

const RANGES = [["all", "All time"], ["today", "Today"], ["7d", "Last 7 days"], [
  "30d",
  "Last 30 days",
]] as const;

export function SessionFilters(
  { query, projects, browsers }: {
    query: SessionListInput;
    projects: ProjectView[];
    /** The browsers the organization's sessions ran in. */
    browsers: string[];
  },
) {
  const signals = query.signals ?? [];
  return (
    <form
      method="get"
      action={sessionsHref()}
      class="filters"
      aria-label="Filter sessions"
      autocomplete="off"
    >
      <SearchField value={query.search ?? ""} placeholder="Session id, user id, name or trait" />
      <div class="field">
        <span id="signals-label">Has</span>
        {/* A popover over the form: open, it moves no field (static/components.css) */}
        <details class="menu signals-menu">
          {/* The summary follows the ticks as they change (static/components.css), before Apply */}
          <summary aria-describedby="signals-label">
            <span class="signals-any">Any</span>
            {SIGNALS.map(([value, label]) => (
              <span key={value} class="signals-chosen" data-signal={value}>{label}</span>
            ))}
          </summary>
          <fieldset class="menu-panel checks-column">
            <legend class="menu-label">Sessions with all ticked</legend>
            {SIGNALS.map(([value, label]) => (
              <label key={value}>
                <input
                  type="checkbox"
                  name="signals"
                  value={value}
                  checked={signals.includes(value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
        </details>
      </div>
      <label class="field">
        <span>Page visited</span>
        <input
          type="text"
          name="visited"
          value={query.visited ?? ""}
          placeholder="/checkout*"
          maxLength={2048}
          size={12}
        />
      </label>
      <FilterSelect
        label="Browser"
        name="browser"
        options={[...new Set([...browsers, ...(query.browser ? [query.browser] : [])])]
          .map((b) => [b, b] as const)}
        selected={query.browser}
      />
      <FilterSelect label="Device" name="device" options={DEVICES} selected={query.device} />
      <FilterSelect
        label="Longer than"
        name="minDuration"
        options={withCurrent(MIN_DURATIONS, query.minDuration)}
        selected={query.minDuration}
      />
      <FilterSelect
        label="Shorter than"
        name="maxDuration"
        options={withCurrent(MAX_DURATIONS, query.maxDuration)}
        selected={query.maxDuration}
      />
      <FilterSelect
        label="Recorded"
        name="reason"
        any="Any way"
        options={withCurrentReasons(query.reason)}
        selected={query.reason?.join(",")}
      />
      <FilterSelect
        label="Web vitals"
        name="vital"
        options={withCurrentVitals(query.vital)}
        selected={query.vital?.join(",")}
      />
      <FilterSelect
        label="Comments"
        name="hasComments"
        options={COMMENTS}
        selected={query.hasComments === undefined ? undefined : String(query.hasComments)}
      />
      <label class="field">
        <span>Comment says</span>
        <input
          type="search"
          name="comment"
          value={query.comment ?? ""}
          placeholder="text"
          maxLength={2000}
          size={10}
        />
      </label>
      <FilterSelect
        label="Pinned"
        name="pinned"
        options={PINNED}
        selected={query.pinned === undefined ? undefined : String(query.pinned)}
      />
      {/* Set by links (insights, heatmaps); shown, and kept while other filters change. */}
      {query.user && (
        <label class="field">
          <span>User</span>
          <input type="text" name="user" value={query.user} maxLength={200} size={10} />
        </label>
      )}
      {query.os && <input type="hidden" name="os" value={query.os} />}
      {query.element && (
        <label class="field">
          <span>Element</span>
          <input type="text" name="element" value={query.element} maxLength={1000} size={10} />
        </label>
      )}
      {query.clicked && (
        <label class="field">
          <span>Clicked</span>
          <input type="text" name="clicked" value={query.clicked} maxLength={1000} size={12} />
        </label>
      )}
      {query.clickedCell && (
        <label class="field">
          <span>Clicked in</span>
          <input
            type="text"
            name="clickedCell"
            value={query.clickedCell}
            maxLength={1100}
            size={12}
          />
        </label>
      )}
      {query.error && (
        <label class="field">
          <span>Error</span>
          <input type="text" name="error" value={query.error} maxLength={1000} size={12} />
        </label>
      )}
      <ProjectPicker projects={projects} selected={query.projectIds ?? []} />
      <label class="field">
        <span>Range</span>
        <select name="range">
          {RANGES.map(([value, label]) => (
            <option key={value} value={value} selected={query.range === value}>{label}</option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>Sort by</span>
        <select name="sort">
          <option value="date" selected={query.sort === "date"}>Start time</option>
          <option value="duration" selected={query.sort === "duration"}>Duration</option>
          <option value="signals" selected={query.sort === "signals"}>Signals</option>
        </select>
      </label>
      <OrderAndApply sortDir={query.sortDir} resetHref={sessionsHref()} />
    </form>
  );
}

/** The offered reasons, plus the URL's own combination when it is not one of them. */
function withCurrentReasons(current: string[] | undefined): (readonly [string, string])[] {
  const value = current?.join(",");
  if (!value || REASONS.some(([offered]) => offered === value)) return [...REASONS];
  return [...REASONS, [value, current!.map((r) => r.replace("_", " ")).join(" or ")] as const];
}

/** The offered vitals, plus the URL's own combination when it is not one of them. */
function withCurrentVitals(current: string[] | undefined): (readonly [string, string])[] {
  const value = current?.join(",");
  if (!value || VITALS.some(([offered]) => offered === value)) return VITALS;
  const words = current!.map((pair) => {
    const [name, rating] = pair.split(":") as [string, keyof typeof RATING_WORDS];
    return `${name.toUpperCase()} ${RATING_WORDS[rating]}`;
  });
  return [...VITALS, [value, words.join(" or ")] as const];
}

/** The offered bounds, plus the URL's own when it is not one of them. */
function withCurrent(
  offered: readonly (readonly [number, string])[],
  current: number | undefined,
): (readonly [number, string])[] {
  if (current === undefined || offered.some(([ms]) => ms === current)) return [...offered];
  return [...offered, [current, formatDuration(current)] as const]
    .sort((a, b) => a[0] - b[0]);
}
