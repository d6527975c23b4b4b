// The Console tab: the recording's console calls with level, arguments and time from the session
// start; per-level counts double as a filter, the entry at the current time is highlighted and a
// click seeks to it and shows its whole text (three lines until then). Recorded text is rendered as
// text (escaped), never as markup. An error row expands below to its whole message and stack.
import { useState } from "preact/hooks";
import {
  CONSOLE_LEVELS,
  type ConsoleEntry,
  type ConsoleLevel,
  levelCounts,
} from "@/player/ui/console_entries.ts";
import { clock } from "@/player/ui/format.ts";
import { ErrorEvidence } from "./ErrorEvidence.tsx";

interface Props {
  entries: ConsoleEntry[];
  /** Index in `entries` of the entry at the current time, or -1. */
  current: number;
  hidden: ReadonlySet<ConsoleLevel>;
  onToggleLevel(level: ConsoleLevel): void;
  /** Real offset in the session of the player's 0 (a public link's window start), for the times. */
  origin: number;
  onSeek(real: number): void;
}

export function ConsolePanel(
  { entries, current, hidden, onToggleLevel, origin, onSeek }: Props,
) {
  const counts = levelCounts(entries);
  // the entry clicked last, shown whole
  const [opened, setOpened] = useState(-1);
  return (
    <div class="console">
      <div class="console-levels" role="group" aria-label="Levels">
        {CONSOLE_LEVELS.map((level) => (
          <button
            type="button"
            key={level}
            class={`level-chip level-${level}`}
            aria-pressed={!hidden.has(level)}
            onClick={() => onToggleLevel(level)}
          >
            {level} <span class="count">{counts[level]}</span>
          </button>
        ))}
      </div>
      {entries.length === 0
        ? <p class="muted panel-empty">Nothing was logged to the console in this session.</p>
        : (
          <ol class="console-list">
            {entries.map((entry, i) =>
              hidden.has(entry.level) ? null : (
                <li key={i}>
                  <button
                    type="button"
                    class={`console-row level-${entry.level}`}
                    aria-current={i === current ? "true" : undefined}
                    data-level={entry.level}
                    data-open={i === opened ? "true" : undefined}
                    onClick={() => {
                      setOpened(i);
                      onSeek(entry.offset);
                    }}
                  >
                    <span class="console-level">{entry.level}</span>
                    <span class="console-args">{entry.args.join(" ")}</span>
                    <span class="console-time">{clock(origin + entry.offset)}</span>
                  </button>
                  {entry.level === "error" && (
                    <ErrorEvidence
                      text={[entry.args.join(" "), ...(entry.stack ?? [])].join("\n")}
                    />
                  )}
                </li>
              )
            )}
          </ol>
        )}
    </div>
  );
}
