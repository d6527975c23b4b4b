// The History tab: sections chained over the session with their markers nested, exactly one row
// marked current; a blocked page's section (the session's start too) is marked paused. Rows are
// buttons: a click seeks to the row's start and shows its whole label (a long path or message
// wraps to two lines until then). An error row expands below to its whole message and stack; a
// page's web vitals follow its row, coloured by their ratings.
import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { clock } from "@/player/ui/format.ts";
import { formatDuration } from "@/utils/format.ts";
import type { ActiveRow, HistoryMarker, HistorySection } from "@/player/ui/history.ts";
import { ratingText } from "@/player/ui/page_vitals.ts";
import { ErrorEvidence } from "./ErrorEvidence.tsx";

interface Props {
  sections: HistorySection[];
  active: ActiveRow;
  /** Real offset in the session of the player's 0 (a public link's window start), for the times. */
  origin: number;
  onSeek(real: number): void;
}

const KIND_LABEL = {
  init: "Start",
  navigation: "Page",
  paused: "Paused",
  idle: "Idle",
  identify: "Identify",
  // short enough for the kind column; the row's label says the rest
  rage_click: "Rage",
  dead_click: "Dead",
  error: "Error",
  network_error: "Failed",
  comment: "Comment",
};

function Row(
  { item, current, open, nested, origin, onSeek }: {
    item: HistorySection | HistoryMarker;
    current: boolean;
    /** The row clicked last: its label shown whole. */
    open: boolean;
    nested: boolean;
    origin: number;
    onSeek(real: number): void;
  },
) {
  const url = "url" in item ? item.url : null;
  const detail = "detail" in item ? item.detail : undefined;
  const blocked = "blocked" in item ? item.blocked : null;
  const kind = blocked !== null ? "paused" : item.kind;
  const title = blocked !== null
    ? `Recording paused on a blocked page: ${blocked}`
    : url ?? (detail ? `${item.label} · ${detail}` : undefined);
  return (
    <li>
      <button
        type="button"
        class={`history-row kind-${kind}${nested ? " nested" : ""}`}
        aria-current={current ? "true" : undefined}
        data-kind={item.kind}
        data-start={item.start}
        data-open={open ? "true" : undefined}
        title={title}
        onClick={() => onSeek(item.start)}
      >
        <span class="history-kind">{KIND_LABEL[kind]}</span>
        <span class="history-label">
          {item.label}
          {/* a space, so the row's name (its text) reads "4 clicks button#pay" */}
          {detail && (
            <>
              {" "}
              <code class="history-detail">{detail}</code>
            </>
          )}
        </span>
        <span class="history-time">
          <span data-testid="row-start">{clock(origin + item.start)}</span>
          {item.duration > 0 && <span class="muted">{formatDuration(item.duration)}</span>}
        </span>
      </button>
      {"evidence" in item && item.evidence && <ErrorEvidence text={item.evidence} />}
      {"vitals" in item && item.vitals.length > 0 && (
        <ul class="history-vitals" aria-label={`Web vitals of ${item.pathname ?? "the page"}`}>
          {item.vitals.map((v) => (
            <li key={v.name} data-vital={v.name} data-rating={v.rating}>
              {v.label}
              <span class="visually-hidden">, {ratingText(v.rating)}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function HistoryPanel({ sections, active, origin, onSeek }: Props) {
  // the row clicked last, as "section" or "section.marker"
  const [opened, setOpened] = useState<string | null>(null);
  const seek = (key: string) => (real: number) => {
    setOpened(key);
    onSeek(real);
  };
  return (
    <ol class="history">
      {sections.map((section, s) => (
        <Fragment key={s}>
          <Row
            item={section}
            nested={false}
            current={active.section === s && active.marker === null}
            open={opened === `${s}`}
            origin={origin}
            onSeek={seek(`${s}`)}
          />
          {section.markers.map((marker, m) => (
            <Row
              key={m}
              item={marker}
              nested
              current={active.section === s && active.marker === m}
              open={opened === `${s}.${m}`}
              origin={origin}
              onSeek={seek(`${s}.${m}`)}
            />
          ))}
        </Fragment>
      ))}
    </ol>
  );
}
