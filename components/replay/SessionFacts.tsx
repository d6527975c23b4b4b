// The facts of one recorded session above the player: when, how long, where, who and on what.
// Recorded values (URL, user names) are rendered as text, never as markup or links the recording
// chose; the client is the browser, OS and device ingest read from the user agent, not the raw one.
import { trackedUserHref } from "@/page_state/tracked_user.ts";
import { heatmapsHref } from "@/page_state/heatmaps.ts";
import { foldedPath } from "@/core/ingest/endpoint.ts";
import type { ComponentChildren } from "preact";
import type { RecordingReason } from "@/core/projects/recording_limits.ts";
import { formatDuration } from "@/utils/format.ts";
import { VisitorText } from "@/components/ui/VisitorText.tsx";
import { reasonText } from "@/components/sessions/RecordingReason.tsx";

export interface SessionFactsData {
  projectId: string;
  startedAt: string;
  duration: number;
  url: string | null;
  projectName: string;
  browser: string | null;
  os: string | null;
  device: string | null;
  screenWidth: number | null;
  screenHeight: number | null;
  language: string | null;
  eventCount: number;
  trackedUser: { id: string; displayName: string | null; externalId: string } | null;
  recordingReason: RecordingReason;
  triggeredAt: number | null;
}

const DATE = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "medium",
  timeZone: "UTC",
});

const DEVICE_NAMES: Record<string, string> = {
  desktop: "Desktop",
  mobile: "Mobile",
  tablet: "Tablet",
};

function Fact(
  { label, children, title }: { label: string; children: ComponentChildren; title?: string },
) {
  return (
    <div class="fact">
      <dt>{label}</dt>
      <dd title={title}>{children}</dd>
    </div>
  );
}

/** A link to the heatmap of the page the session landed on (its path folded as the heatmaps fold it). */
function HeatmapLink({ projectId, url }: { projectId: string; url: string | null }) {
  let pathname: string;
  try {
    pathname = new URL(url ?? "").pathname;
  } catch {
    return null;
  }
  return (
    <Fact label="Heatmap">
      <a href={heatmapsHref({ projectId, path: foldedPath(pathname) })}>{foldedPath(pathname)}</a>
    </Fact>
  );
}

export function SessionFacts({ session }: { session: SessionFactsData }) {
  const user = session.trackedUser;
  const screen = session.screenWidth && session.screenHeight
    ? `${session.screenWidth} × ${session.screenHeight}`
    : "unknown";
  return (
    <dl class="session-facts">
      <Fact label="Started">
        <time dateTime={session.startedAt}>{DATE.format(new Date(session.startedAt))} UTC</time>
      </Fact>
      <Fact label="Duration">{formatDuration(session.duration)}</Fact>
      <Fact label="User">
        {user
          ? (
            <a href={trackedUserHref(user.id)}>
              <VisitorText text={user.displayName ?? user.externalId} />
            </a>
          )
          : <span class="muted">Anonymous</span>}
      </Fact>
      <Fact label="Project">{session.projectName}</Fact>
      <Fact label="URL" title={session.url ?? undefined}>{session.url ?? "unknown"}</Fact>
      <HeatmapLink projectId={session.projectId} url={session.url} />
      <Fact label="Browser">
        {session.browser ?? "unknown"}
        {session.os && <span class="muted">{` on ${session.os}`}</span>}
      </Fact>
      <Fact label="Device">{DEVICE_NAMES[session.device ?? ""] ?? "unknown"}</Fact>
      <Fact label="Screen">{screen}</Fact>
      <Fact label="Language">{session.language ?? "unknown"}</Fact>
      <Fact label="Events">{session.eventCount.toLocaleString("en")}</Fact>
      <Fact label="Recorded">
        {reasonText(session.recordingReason, session.triggeredAt, session.startedAt)}
      </Fact>
    </dl>
  );
}
